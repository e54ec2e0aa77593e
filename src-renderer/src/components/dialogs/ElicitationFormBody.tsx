// A server asks the user to fill in a form (spec 2025-11-25 "Elicitation", form mode): the
// requested schema rendered as fields with its defaults applied, checked before it is sent; Decline and
// Cancel answer without data.
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import type { ElicitationFieldSchema, ElicitationFormInteraction } from '@shared/interactions';
import { ErrorNote } from '../ErrorNote';
import { choices, fieldKind, initialValues, validateForm, type FieldValue } from './elicitationForm';
import type { Answer } from './answer';

const INPUT_TYPE: Record<string, string> = {
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
};

export function ElicitationFormBody(props: {
  request: ElicitationFormInteraction;
  send: Answer;
  busy: boolean;
  error: unknown;
}) {
  const { request: r } = props;
  const schema = r.requestedSchema;
  const [values, setValues] = useState(() => initialValues(schema));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const required = new Set(schema.required ?? []);
  const set = (name: string, v: FieldValue) => setValues({ ...values, [name]: v });
  const submit = () => {
    const checked = validateForm(schema, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      // The first bad field may be scrolled out of a long form: take the user there.
      const first = Object.keys(schema.properties).find((n) => n in checked.errors);
      if (first) document.getElementById(`elicit-${first}`)?.focus();
      return;
    }
    setErrors({});
    props.send({ kind: 'elicitation-form', action: 'accept', content: checked.content });
  };
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Dialog.Title className="modal-title">“{r.server}” asks for some information</Dialog.Title>
      <p className="elicit-message">{r.message}</p>
      <div className="elicit-fields">
        {Object.entries(schema.properties).map(([name, f]) => (
          <Field
            key={name}
            name={name}
            field={f}
            required={required.has(name)}
            value={values[name]!}
            error={errors[name]}
            onChange={(v) => set(name, v)}
          />
        ))}
      </div>
      <p className="muted small">Only what you send here reaches the server. Fields marked * are required.</p>
      <ErrorNote error={props.error} />
      <div className="actions">
        <button
          type="button"
          disabled={props.busy}
          onClick={() => props.send({ kind: 'elicitation-form', action: 'cancel' })}
        >
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          disabled={props.busy}
          onClick={() => props.send({ kind: 'elicitation-form', action: 'decline' })}
        >
          Decline
        </button>
        <span className="spacer" />
        <button type="submit" className="primary" disabled={props.busy}>
          Send
        </button>
      </div>
    </form>
  );
}

function Field(props: {
  name: string;
  field: ElicitationFieldSchema;
  required: boolean;
  value: FieldValue;
  error: string | undefined;
  onChange: (v: FieldValue) => void;
}) {
  const { field: f, name } = props;
  const label = `${f.title ?? name}${props.required ? ' *' : ''}`;
  const id = `elicit-${name}`;
  const describe = [f.description ? `${id}-desc` : '', props.error ? `${id}-err` : '']
    .filter(Boolean)
    .join(' ');
  const common = { id, 'aria-invalid': !!props.error, 'aria-describedby': describe || undefined };
  const kind = fieldKind(f);
  let control;
  if (kind === 'checkbox')
    control = (
      <input
        {...common}
        type="checkbox"
        checked={props.value === true}
        onChange={(e) => props.onChange(e.target.checked)}
      />
    );
  else if (kind === 'select')
    control = (
      <select {...common} value={String(props.value)} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">(choose)</option>
        {choices(f).map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  else if (kind === 'multi') {
    const list = props.value as string[];
    control = (
      <span
        className="multi"
        role="group"
        aria-labelledby={`${id}-label`}
        aria-describedby={describe || undefined}
      >
        {choices(f).map((c) => (
          <label key={c.value} className="inline">
            <input
              type="checkbox"
              checked={list.includes(c.value)}
              onChange={(e) =>
                props.onChange(e.target.checked ? [...list, c.value] : list.filter((x) => x !== c.value))
              }
            />
            {c.label}
          </label>
        ))}
      </span>
    );
  } else
    control = (
      <input
        {...common}
        type={kind === 'number' ? 'number' : (INPUT_TYPE[f.format ?? ''] ?? 'text')}
        step={f.type === 'integer' ? 1 : 'any'}
        value={String(props.value)}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  return (
    <div className={`elicit-field kind-${kind}`}>
      <label htmlFor={id} id={`${id}-label`}>
        {label}
      </label>
      {control}
      {f.description && (
        <span id={`${id}-desc`} className="muted small">
          {f.description}
        </span>
      )}
      {props.error && (
        <span id={`${id}-err`} className="danger-text small" role="alert">
          {props.error}
        </span>
      )}
    </div>
  );
}
