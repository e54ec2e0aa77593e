// Project folders: what a folder's .mooring/.vscode/.cursor/.mcp.json files offer, each with the full
// command line it would run, what else it may do, and what the file asks that an import never carries
// (trust, trust-all, private-network reach…: held back unless the person ticks the box that allows it).
// Nothing runs until approved here; an edited file asks again. Every string here came from the project's
// files: control and bidi characters are shown as escapes (docs/untrusted-text.md, "Untrusted text").
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useTRPC } from '../api/trpc';
import { ConfigVariables } from '../components/ConfigVariables';
import { ErrorNote } from '../components/ErrorNote';
import { Badge, Button, Callout, Card, PageHeader } from '../ui';
import { CliHint } from './CliHint';
import { titleOf } from '../shell/screens';

const STATUS: Record<string, string> = {
  approved: 'approved',
  pending: 'not approved',
  changed: 'changed since you approved it',
};

export function WorkspaceScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [path, setPath] = useState('');
  const [dir, setDir] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, Record<string, string>>>({});
  /** Servers whose held-back settings the person ticked to allow (never ticked by default). */
  const [widen, setWiden] = useState<Record<string, boolean>>({});
  /** Per server, the secret-looking variables the person ticked to send to its remote URL or headers. */
  const [allowVars, setAllowVars] = useState<Record<string, Set<string>>>({});
  const tickVariable = (server: string, name: string, allow: boolean) =>
    setAllowVars((a) => {
      const next = new Set(a[server]);
      if (allow) next.add(name);
      else next.delete(name);
      return { ...a, [server]: next };
    });
  const scan = useQuery({ ...trpc.workspace.scan.queryOptions({ dir: dir ?? '' }), enabled: dir !== null });
  const approve = useMutation(
    trpc.workspace.approve.mutationOptions({
      onSuccess: () =>
        void qc.invalidateQueries({ queryKey: trpc.workspace.scan.queryKey({ dir: dir ?? '' }) }),
    }),
  );
  return (
    <section aria-labelledby="workspace-title">
      <PageHeader
        id="workspace-title"
        title={titleOf('workspace')}
        description={
          <>
            Projects often carry MCP servers in <code>.vscode/mcp.json</code>, <code>.cursor/mcp.json</code>,{' '}
            <code>.mcp.json</code> or <code>.mooring/mcp_servers.json</code>. Mooring shows what they would
            run and starts nothing until you approve it. A chat tied to the folder then uses them.
          </>
        }
      />
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          setDir(path.trim() || null);
        }}
      >
        <input
          aria-label="Project folder path"
          placeholder="/path/to/project"
          value={path}
          onChange={(e) => setPath(e.target.value)}
        />
        <Button type="submit" variant="primary">
          Look
        </Button>
      </form>
      <ErrorNote error={scan.error ?? approve.error} />
      {scan.data && (
        <div data-testid="workspace-scan">
          {scan.data.errors.map((e) => (
            <p key={e} className="error-note" role="alert">
              {e}
            </p>
          ))}
          {scan.data.servers.length === 0 && <p className="muted">This folder offers no MCP servers.</p>}
          <ul className="plain list">
            {scan.data.servers.map((s) => (
              <li key={s.name} data-testid={`offered-${s.name}`}>
                <Card className="offered">
                  <div className="offered-main">
                    <div className="server-name-row">
                      <h3 className="server-name">{s.name}</h3>
                      <Badge tone={s.status === 'approved' ? 'success' : 'warning'}>
                        {STATUS[s.status] ?? s.status}
                      </Badge>
                      <span className="muted small">from {s.source}</span>
                    </div>
                    <code className="command-line">{shown(s.commandLine)}</code>
                    <p className="confine-consent" data-testid="offered-confinement">
                      {shown(s.confinement)}
                    </p>
                    {s.approvedCommandLine && (
                      <p className="hint">
                        You approved: <code>{shown(s.approvedCommandLine)}</code>
                      </p>
                    )}
                    {s.grants.length > 0 && (
                      <ul className="plain" data-testid="offered-grants" aria-label="Beyond its command line">
                        {s.grants.map((g) => (
                          <li key={g}>Beyond the command: {shown(g)}</li>
                        ))}
                      </ul>
                    )}
                    <ConfigVariables
                      server={s.name}
                      variables={s.variables}
                      ticked={allowVars[s.name] ?? new Set()}
                      onTick={(name, allow) => tickVariable(s.name, name, allow)}
                      testId="offered-variables"
                    />
                    {s.heldBack.length > 0 && (
                      <HeldBack
                        name={s.name}
                        items={s.heldBack}
                        allowed={s.heldBackAllowed}
                        approved={s.status === 'approved'}
                        ticked={widen[s.name] ?? false}
                        onTick={(v) => setWiden((w) => ({ ...w, [s.name]: v }))}
                      />
                    )}
                    {s.warnings.map((w) => (
                      <p key={w} className="hint">
                        {shown(w)}
                      </p>
                    ))}
                    {s.status !== 'approved' &&
                      s.inputs.map((i) => (
                        <label key={i.id} className="field">
                          {i.description ?? i.id}
                          <input
                            type={i.password ? 'password' : 'text'}
                            value={values[s.name]?.[i.id] ?? ''}
                            onChange={(e) =>
                              setValues((v) => ({ ...v, [s.name]: { ...v[s.name], [i.id]: e.target.value } }))
                            }
                          />
                        </label>
                      ))}
                  </div>
                  {dir &&
                    (s.status !== 'approved' ||
                      (s.heldBack.length > 0 && !s.heldBackAllowed) ||
                      s.variables.some((v) => v.held)) && (
                      <div className="offered-actions">
                        <Button
                          variant="primary"
                          loading={approve.isPending}
                          disabled={s.status === 'approved' && !widen[s.name] && !allowVars[s.name]?.size}
                          onClick={() =>
                            approve.mutate({
                              dir,
                              name: s.name,
                              inputs: values[s.name] ?? {},
                              allowHeldBack: (widen[s.name] ?? false) || s.heldBackAllowed,
                              allowVariables: [...(allowVars[s.name] ?? [])],
                              pin: s.pin,
                            })
                          }
                        >
                          {s.status === 'approved' ? 'Allow what is held back' : 'Approve: run this command'}
                        </Button>
                      </div>
                    )}
                </Card>
              </li>
            ))}
          </ul>
        </div>
      )}
      <CliHint commands={['mooring mcp list --workspace DIR', 'mooring mcp approve NAME --workspace DIR']} />
    </section>
  );
}

/**
 * What the file asks beyond an import, held back until the person ticks the box: unticked by default, and
 * the approval without the tick runs the server without them.
 */
function HeldBack(props: {
  name: string;
  items: string[];
  allowed: boolean;
  approved: boolean;
  ticked: boolean;
  onTick: (v: boolean) => void;
}) {
  if (props.allowed)
    return (
      <ul className="plain warn-text" data-testid="offered-held-back">
        {props.items.map((d) => (
          <li key={d}>Allowed when you approved it: {shown(d)}</li>
        ))}
      </ul>
    );
  return (
    <Callout tone="warning" title="Held back: the file also asks for more" testId="offered-held-back">
      <ul className="plain">
        {props.items.map((d) => (
          <li key={d}>{shown(d)}</li>
        ))}
      </ul>
      <p>
        A project file never grants these by itself, as with an import.{' '}
        {props.approved
          ? 'The server runs without them.'
          : 'Approving runs the server without them unless you allow them here.'}
      </p>
      <label className="inline">
        <input
          type="checkbox"
          aria-label={`Also allow what is held back for ${props.name}`}
          checked={props.ticked}
          onChange={(e) => props.onTick(e.target.checked)}
        />{' '}
        Also allow these (only for a project you trust)
      </label>
    </Callout>
  );
}
