// Sharing: Mooring as an MCP server, started from the app (ARCHITECTURE.md, `serve/`): other clients
// (Claude Desktop, Cursor, VS Code, scripts) reach Mooring's memory, conversations and every enabled tool,
// under the same approvals, which appear in this window.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Play, Square } from 'lucide-react';
import { useState } from 'react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Badge, Button, Callout, Card, CardHeader, CodeBlock, PageHeader, Switch } from '../ui';
import { CliHint } from './CliHint';
import { titleOf } from '../shell/screens';

export function SharingScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const status = useQuery(trpc.mcpServer.status.queryOptions());
  const entry = useQuery(trpc.mcpServer.clientEntry.queryOptions());
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
    <section aria-labelledby="sharing-title" data-testid="mcp-server-panel">
      <PageHeader
        id="sharing-title"
        title={titleOf('sharing')}
        description="Share Mooring's tools with other apps: Mooring becomes an MCP server for Claude Desktop, Cursor, VS Code or your scripts, with its memory, its conversations and every enabled tool, under the same approvals."
      />
      <Card>
        <CardHeader
          title={
            <>
              Share Mooring's tools with other apps
              {s?.running ? (
                <Badge tone="success" dot>
                  running
                </Badge>
              ) : (
                <Badge dot>stopped</Badge>
              )}
            </>
          }
          sub="Streamable HTTP on 127.0.0.1, with a bearer token. Calls that need approval appear in this window."
        />
        <div className="stack-md card-body">
          {s?.running ? (
            <>
              <p>
                Running at <code>{s.url}</code> for <strong>{s.label}</strong>
                {s.readOnly ? ' (read-only tools only)' : ''} · {s.clients.length} client
                {s.clients.length === 1 ? '' : 's'} connected
              </p>
              {shown && (
                <Callout
                  tone="info"
                  role="status"
                  testId="mcp-server-token"
                  title="Give the client this URL and header"
                >
                  The token is shown only now.
                  <pre className="command-line">{`{ "url": "${shown.url}", "headers": { "Authorization": "Bearer ${shown.token}" } }`}</pre>
                </Callout>
              )}
              <div>
                <Button
                  variant="danger"
                  icon={<Square size={14} />}
                  loading={stop.isPending}
                  onClick={() => stop.mutate()}
                >
                  Stop
                </Button>
              </div>
            </>
          ) : (
            <>
              <Switch
                label="Read-only tools only"
                description="Other apps can use only tools that say they change nothing."
                checked={readOnly}
                onCheckedChange={setReadOnly}
              />
              <div>
                <Button
                  variant="primary"
                  icon={<Play size={14} />}
                  loading={start.isPending}
                  onClick={() => start.mutate({ readOnly, label: 'ui' })}
                >
                  Start
                </Button>
              </div>
            </>
          )}
          <ErrorNote error={start.error ?? stop.error} />
        </div>
      </Card>
      <h2 className="section-title">For a client that starts servers itself</h2>
      <p className="muted">
        Claude Desktop and Cursor start their servers as commands. Add this entry to their config (it names
        this install by its full path, so it works without <code>mooring</code> on PATH):
      </p>
      {entry.data ? (
        <>
          <CodeBlock label="config" code={entry.data.json} testId="sharing-client-entry" />
          <p className="muted" data-testid="sharing-bare-note">
            {entry.data.bareNote}
          </p>
        </>
      ) : (
        <ErrorNote error={entry.error} />
      )}
      <CliHint
        commands={['mooring serve --client-entry', 'mooring serve --stdio', 'mooring serve --http 8765']}
      />
    </section>
  );
}
