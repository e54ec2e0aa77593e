// Rows of KEY = value with a "secret" toggle (secret values go to the OS keychain).
import type { KeyValueRow } from '../lib/serverDraft';

export function KeyValueEditor(props: {
  label: string;
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  keyHint: string;
}) {
  const set = (i: number, patch: Partial<KeyValueRow>) =>
    props.onChange(props.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="kv">
      <legend>{props.label}</legend>
      {props.rows.map((r, i) => (
        <div className="kv-row" key={i}>
          <input
            aria-label={`${props.label} name ${i + 1}`}
            placeholder={props.keyHint}
            value={r.key}
            onChange={(e) => set(i, { key: e.target.value })}
          />
          <input
            aria-label={`${props.label} value ${i + 1}`}
            placeholder="value"
            type={r.secret ? 'password' : 'text'}
            value={r.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <label className="inline">
            <input
              type="checkbox"
              checked={r.secret}
              onChange={(e) => set(i, { secret: e.target.checked })}
            />{' '}
            secret
          </label>
          <button
            type="button"
            className="link"
            aria-label={`Remove ${props.label} row ${i + 1}`}
            onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
          >
            ✕
          </button>
        </div>
      ))}
      <button
        type="button"
        className="link"
        onClick={() => props.onChange([...props.rows, { key: '', value: '', secret: false }])}
      >
        + Add {props.label.toLowerCase()}
      </button>
    </fieldset>
  );
}
