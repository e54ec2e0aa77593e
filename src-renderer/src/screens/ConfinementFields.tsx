// The Add/Edit form's "Run confined" switch (docs/confinement.md): a local server confined starts from
// its runtime's profile (npx, uvx, or nothing), and the form edits where it may write and which hosts it
// may reach (denyRead and denyWrite stay as the entry has them; the JSON view edits them). The line under
// it is the consent line: what the server will be able to write and reach, or that it runs unconfined.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { confinementSummary, profileKindOf, sandboxProfile, type SandboxSettings } from '@shared/confinement';
import type { ServerConfigInput } from '@shared/config';
import { useTRPC } from '../api/trpc';
import { Field, Switch } from '../ui';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

export function ConfinementFields(props: {
  command: string;
  args: string;
  rest: Partial<ServerConfigInput>;
  setRest: (rest: Partial<ServerConfigInput>) => void;
}) {
  const trpc = useTRPC();
  const required = useQuery(trpc.confinement.policy.queryOptions()).data?.locks?.confinementRequired === true;
  const on = props.rest.sandboxEnabled === true;
  const sandbox: SandboxSettings = props.rest.sandbox ?? {};
  // The runtime's profile follows the command until the person edits the lists themselves.
  const [auto, setAuto] = useState(props.rest.sandbox === undefined);
  const setSandbox = (next: SandboxSettings) => {
    setAuto(false);
    props.setRest({ ...props.rest, sandbox: next });
  };
  const toggle = (enabled: boolean) => props.setRest({ ...props.rest, sandboxEnabled: enabled });
  const { command, args, rest, setRest } = props;
  useEffect(() => {
    const wanted = required || rest.sandboxEnabled === true;
    if (!wanted || !auto) return;
    const profile = sandboxProfile(profileKindOf(command.trim(), lines(args)));
    if (rest.sandboxEnabled !== true || JSON.stringify(rest.sandbox) !== JSON.stringify(profile))
      setRest({ ...rest, sandboxEnabled: true, sandbox: profile });
  }, [required, auto, command, args, rest, setRest]);
  return (
    <div className="span-2 confine-field">
      <Switch
        label="Run confined"
        checked={on || required}
        disabled={required}
        onCheckedChange={toggle}
        description={
          required
            ? 'Your organisation requires every local server to run confined.'
            : 'It writes only where you allow and reaches only the hosts you list; your credentials and Mooring’s own files stay out of its reach.'
        }
      />
      {on && (
        <div className="form-grid">
          <Field label="May write (one path per line)" hint="Absolute, or starting with ~/.">
            <textarea
              aria-label="May write"
              className="code"
              rows={3}
              value={(sandbox.filesystem?.allowWrite ?? []).join('\n')}
              onChange={(e) =>
                setSandbox({
                  ...sandbox,
                  filesystem: { ...sandbox.filesystem, allowWrite: lines(e.target.value) },
                })
              }
            />
          </Field>
          <Field label="May reach (one host per line)" hint="example.com, *.example.com, localhost:5432">
            <textarea
              aria-label="May reach"
              className="code"
              rows={3}
              value={(sandbox.network?.allowedDomains ?? []).join('\n')}
              onChange={(e) => setSandbox({ ...sandbox, network: { allowedDomains: lines(e.target.value) } })}
            />
          </Field>
        </div>
      )}
      <p className="confine-consent" data-testid="confinement-summary">
        {confinementSummary({ transport: 'stdio', sandboxEnabled: on, sandbox })}
      </p>
    </div>
  );
}
