// The install consent (README, "Installing servers"): where the server comes from, the exact command line or
// URL it will run, its repository and version, the OSV check's verdict, what else it is given, and the values
// it asks for; nothing is written until Install, and closing the dialog declines. Every string here came from
// a registry, a bundle or a link: control and bidi characters are shown as escapes (docs/untrusted-text.md,
// "Untrusted text"), and everything is rendered as text.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { useId, useState } from 'react';
import type { InstallInput, InstallPlan, InstallResult } from '@shared/registry';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Badge, Button, Callout, CodeBlock, Dialog, Field } from '../../ui';
import { isLocalTransport } from '@shared/transports';

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

const OSV_TONE = {
  clean: 'success',
  vulnerable: 'warning',
  malicious: 'danger',
  unchecked: 'info',
  'not-applicable': 'info',
} as const;

function InputField(props: { input: InstallInput; value: string; onChange: (v: string) => void }) {
  const { input, value, onChange } = props;
  const label = `${shown(input.label)}${input.required ? ' (required)' : ''}${input.secret ? ' — kept in the keychain' : ''}`;
  return (
    <div data-testid={`install-input-${input.id}`}>
      <Field label={label} hint={input.description ? shown(input.description) : undefined}>
        {input.choices?.length ? (
          <select value={value} onChange={(e) => onChange(e.target.value)}>
            {!input.required && <option value="">(leave out)</option>}
            {input.choices.map((c) => (
              <option key={c} value={c}>
                {shown(c)}
              </option>
            ))}
          </select>
        ) : (
          <input
            type={input.secret ? 'password' : 'text'}
            autoComplete="off"
            value={value}
            required={input.required}
            onChange={(e) => onChange(e.target.value)}
          />
        )}
      </Field>
    </div>
  );
}

export function InstallConsent(props: {
  plan: InstallPlan;
  /** Where the plan came from, beyond its source (e.g. "Mooring was opened with a link at 10:42"). */
  origin?: string;
  onFinished: (result: InstallResult | null) => void;
}) {
  const { plan } = props;
  const trpc = useTRPC();
  const qc = useQueryClient();
  const formId = useId();
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
  const decline = useMutation(trpc.install.decline.mutationOptions());
  const blocked = plan.osv.status === 'malicious';
  const missing = plan.inputs.some((i) => i.required && !values[i.id]);
  // Cancel closes at once; the core drops the plan meanwhile (it lingered a round trip, holding the focus
  // away from the page behind it).
  const cancel = () => {
    decline.mutate({ id: plan.id });
    props.onFinished(null);
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && cancel()}
      size="lg"
      testId="install-consent"
      title={
        <>
          Install {shown(plan.title ?? plan.name)}
          {plan.version && (
            <Badge className="consent-version" tone="neutral">
              {shown(plan.version)}
            </Badge>
          )}
        </>
      }
      description={<span data-testid="install-source">From {shown(sourceText(plan))}</span>}
      footer={
        <>
          <Button onClick={cancel} disabled={install.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="primary"
            loading={install.isPending}
            disabled={blocked || missing}
          >
            Install {name}
          </Button>
        </>
      }
    >
      <div className="install-consent">
        {props.origin && <p className="muted">{shown(props.origin)}</p>}
        {plan.description && <p className="description">{shown(plan.description, { multiline: true })}</p>}
        {(plan.repository || plan.websiteUrl) && (
          <p className="meta">
            {plan.repository && (
              <span>
                <ExternalLink size={14} aria-hidden />
                Repository (README):{' '}
                <a
                  href={plan.repository}
                  target="_blank"
                  rel="noreferrer noopener"
                  data-testid="install-repository"
                >
                  {shown(plan.repository)}
                </a>
              </span>
            )}
            {plan.websiteUrl && (
              <span>
                <ExternalLink size={14} aria-hidden />
                Website:{' '}
                <a href={plan.websiteUrl} target="_blank" rel="noreferrer noopener">
                  {shown(plan.websiteUrl)}
                </a>
              </span>
            )}
          </p>
        )}
        <h3 className="consent-label">
          {isLocalTransport(plan.transport) ? 'Runs this command on your machine' : 'Connects to'}
        </h3>
        <CodeBlock code={shown(plan.commandLine)} label="Command" wrap testId="install-command-line" />
        <p className="confine-consent" data-testid="install-confinement">
          {shown(plan.confinement)}
        </p>
        {plan.options && plan.options.length > 1 && (
          <ul className="plain meta consent-options">
            {plan.options.map((o) => (
              <li key={o.label}>
                {o.label === plan.option?.label ? 'Installs: ' : 'Also offered: '}
                {shown(o.label)}
                {o.unsupported && ` (not installable: ${shown(o.unsupported)})`}
              </li>
            ))}
          </ul>
        )}
        <Callout tone={OSV_TONE[plan.osv.status]} testId="install-osv">
          OSV check: {shown(plan.osv.text)}
        </Callout>
        {plan.grants.length > 0 && (
          <>
            <h3 className="consent-label">It is also given</h3>
            <ul className="consent-grants" data-testid="install-grants">
              {plan.grants.map((g) => (
                <li key={g}>{shown(g)}</li>
              ))}
            </ul>
          </>
        )}
        {plan.warnings.map((w) => (
          <Callout key={w} tone="warning">
            {shown(w)}
          </Callout>
        ))}
        <form
          id={formId}
          className="consent-form"
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
          <Field label="Save as" hint="The server’s name in Mooring; its tools are named after it.">
            <input value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <p className="muted">
            Its destructive tools start off (the default safe set); turn one on in Tools when you need it.
          </p>
        </form>
        <ErrorNote error={install.error} testId="install-error" />
      </div>
    </Dialog>
  );
}
