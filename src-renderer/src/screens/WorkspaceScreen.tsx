// Project folders: what a folder's .mooring/.vscode/.cursor/.mcp.json files offer, each with the full
// command line it would run. Nothing runs until approved here; an edited file asks again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Badge, Button, Card, PageHeader } from '../ui';
import { CliHint } from './CliHint';

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
        title="Project folders"
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
                    <code className="command-line">{s.commandLine}</code>
                    {s.approvedCommandLine && (
                      <p className="hint">
                        You approved: <code>{s.approvedCommandLine}</code>
                      </p>
                    )}
                    {s.warnings.map((w) => (
                      <p key={w} className="hint">
                        {w}
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
                  {s.status !== 'approved' && dir && (
                    <div className="offered-actions">
                      <Button
                        variant="primary"
                        loading={approve.isPending}
                        onClick={() => approve.mutate({ dir, name: s.name, inputs: values[s.name] ?? {} })}
                      >
                        Approve: run this command
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
