// Mooring as an MCP server, from the app (issue 8): other clients (Claude Desktop, Cursor, VS Code, scripts)
// reach Mooring's memory, conversations and every enabled tool here, under the same approvals.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';

export function McpServerPanel() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const status = useQuery(trpc.mcpServer.status.queryOptions());
  const [readOnly, setReadOnly] = useState(true);
  const [shown, setShown] = useState<{ url: string; token: string } | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: trpc.mcpServer.status.queryKey() });
  const start = useMutation(
    trpc.mcpServer.start.mutationOptions({
      onSuccess: (r) => {
        setShown({ url: r.url, token: r.token });
        refresh();
      },
    }),
  );
  const stop = useMutation(
    trpc.mcpServer.stop.mutationOptions({
      onSuccess: () => {
        setShown(null);
        refresh();
      },
    }),
  );
  const s = status.data;
  return (
    <section className="toolsets" aria-labelledby="mcpserver-title" data-testid="mcp-server-panel">
      <h2 id="mcpserver-title">Share Mooring's tools with other apps</h2>
      <p className="muted">
        Serves Mooring's memory, conversations and every enabled tool over MCP (Streamable HTTP on 127.0.0.1,
        with a token). Calls that need approval appear here. For a client that launches servers itself, use{' '}
        <code>mooring serve --stdio</code> instead.
      </p>
      {s?.running ? (
        <div>
          <p>
            Running at <code>{s.url}</code> for <strong>{s.label}</strong>
            {s.readOnly ? ' (read-only tools only)' : ''} · {s.clients.length} client(s) connected{' '}
            <button type="button" onClick={() => stop.mutate()}>
              Stop
            </button>
          </p>
          {shown && (
            <div className="banner" role="status" data-testid="mcp-server-token">
              Give the client this URL and header; the token is shown only now.
              <pre className="command-line">{`{ "url": "${shown.url}", "headers": { "Authorization": "Bearer ${shown.token}" } }`}</pre>
            </div>
          )}
        </div>
      ) : (
        <div className="actions">
          <label className="inline">
            <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} />
            read-only tools only
          </label>
          <button
            type="button"
            className="primary"
            disabled={start.isPending}
            onClick={() => start.mutate({ readOnly, label: 'ui' })}
          >
            Start
          </button>
        </div>
      )}
      <ErrorNote error={start.error ?? stop.error} />
    </section>
  );
}
