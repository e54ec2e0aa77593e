// The install consent (README, "Installing servers"): where the server comes from, the exact command line or
// URL it will run, its repository and version, the OSV check's verdict, what else it is given, and the values
// it asks for; nothing is written until Install. Every string here came from a registry, a bundle or a link:
// control and bidi characters are shown as escapes (ARCHITECTURE.md, "Untrusted text").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { InstallInput, InstallPlan, InstallResult } from '@shared/registry';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';

const LINK_FROM = {
  mooring: 'a mooring:// link',
  cursor: 'a Cursor install link',
  vscode: 'a VS Code install link',
};

export function sourceText(plan: InstallPlan): string {
  const s = plan.source;
  if (s.kind === 'registry') return `${s.name} ${s.version}, from the registry at ${s.registry}`;
  if (s.kind === 'bundle') return `the bundle ${s.file} (SHA-256 ${s.sha256})`;
  return `${LINK_FROM[s.link]}. Install servers only from pages you trust.`;
}

function InputField(props: { input: InstallInput; value: string; onChange: (v: string) => void }) {
  const { input, value, onChange } = props;
  const label = `${shown(input.label)}${input.required ? ' (required)' : ''}${input.secret ? ' — kept in the keychain' : ''}`;
  return (
    <label className="stack" data-testid={`install-input-${input.id}`}>
      {label}
      {input.choices?.length ? (
        <select aria-label={input.label} value={value} onChange={(e) => onChange(e.target.value)}>
          {!input.required && <option value="">(leave out)</option>}
          {input.choices.map((c) => (
            <option key={c} value={c}>
              {shown(c)}
            </option>
          ))}
        </select>
      ) : (
        <input
          aria-label={input.label}
          type={input.secret ? 'password' : 'text'}
          autoComplete="off"
          value={value}
          required={input.required}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {input.description && <span className="muted">{shown(input.description)}</span>}
    </label>
  );
}

export function InstallConsent(props: {
  plan: InstallPlan;
  /** Where the plan came from, beyond its source (e.g. "opened from a link at 10:42"). */
  origin?: string;
  onFinished: (result: InstallResult | null) => void;
}) {
  const { plan } = props;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [name, setName] = useState(plan.name);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(plan.inputs.map((i) => [i.id, i.secret ? '' : (i.default ?? '')])),
  );
  const install = useMutation(
    trpc.install.install.mutationOptions({
      onSuccess: (r) => {
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
        props.onFinished(r);
      },
    }),
  );
  const decline = useMutation(
    trpc.install.decline.mutationOptions({ onSettled: () => props.onFinished(null) }),
  );
  const blocked = plan.osv.status === 'malicious';
  const missing = plan.inputs.some((i) => i.required && !values[i.id]);

  return (
    <section className="install-consent" data-testid="install-consent" aria-label="Install consent">
      <h3>
        {shown(plan.title ?? plan.name)}{' '}
        {plan.version && <span className="muted">{shown(plan.version)}</span>}
      </h3>
      <p data-testid="install-source">From {shown(sourceText(plan))}</p>
      {props.origin && <p className="muted">{shown(props.origin)}</p>}
      {plan.description && <p className="description">{shown(plan.description, { multiline: true })}</p>}
      {(plan.repository || plan.websiteUrl) && (
        <p>
          {plan.repository && (
            <>
              Repository (README):{' '}
              <a
                href={plan.repository}
                target="_blank"
                rel="noreferrer noopener"
                data-testid="install-repository"
              >
                {shown(plan.repository)}
              </a>{' '}
            </>
          )}
          {plan.websiteUrl && (
            <>
              Website:{' '}
              <a href={plan.websiteUrl} target="_blank" rel="noreferrer noopener">
                {shown(plan.websiteUrl)}
              </a>
            </>
          )}
        </p>
      )}
      <p>{plan.transport === 'stdio' ? 'Runs this command on your machine:' : 'Connects to:'}</p>
      <code className="command-line" data-testid="install-command-line">
        {shown(plan.commandLine)}
      </code>
      {plan.options && plan.options.length > 1 && (
        <ul className="plain muted">
          {plan.options.map((o) => (
            <li key={o.label}>
              {o.label === plan.option?.label ? 'Installs: ' : 'Also offered: '}
              {shown(o.label)}
              {o.unsupported && ` (not installable: ${shown(o.unsupported)})`}
            </li>
          ))}
        </ul>
      )}
      <p
        className={blocked ? 'warn-text' : plan.osv.status === 'clean' ? 'ok-text' : 'muted'}
        data-testid="install-osv"
      >
        OSV check: {shown(plan.osv.text)}
      </p>
      {plan.grants.length > 0 && (
        <ul className="plain" data-testid="install-grants">
          {plan.grants.map((g) => (
            <li key={g}>Gives it: {shown(g)}</li>
          ))}
        </ul>
      )}
      {plan.warnings.map((w) => (
        <p key={w} className="warn-text">
          {shown(w)}
        </p>
      ))}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          const inputs = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
          install.mutate({ id: plan.id, inputs, ...(name !== plan.name ? { name } : {}) });
        }}
      >
        {plan.inputs.map((i) => (
          <InputField
            key={i.id}
            input={i}
            value={values[i.id] ?? ''}
            onChange={(v) => setValues((old) => ({ ...old, [i.id]: v }))}
          />
        ))}
        <label className="stack">
          Save as
          <input aria-label="Server name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <ErrorNote error={install.error} testId="install-error" />
        <div className="actions">
          <span className="spacer" />
          <button type="button" onClick={() => decline.mutate({ id: plan.id })}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={blocked || missing || install.isPending}>
            Install {name}
          </button>
        </div>
      </form>
    </section>
  );
}
