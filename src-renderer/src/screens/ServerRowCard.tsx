// One configured server on the Servers screen: its icon, state, command line, tools, token cost, latency and MCP revision;
// enable, Tools, Logs, Reload tool list (asks the running server for its tools again) or Retry (a failed server), Edit, Remove; and, when it
// failed, the error as a block under the row.
import { escapeUntrusted as shown } from '@shared/untrustedText';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil, RefreshCw, ScrollText, Trash2, Wrench } from 'lucide-react';
import type { ServerRow } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { McpIcon } from '../components/McpIcon';
import { ServerErrorBlock } from '../components/ServerErrorBlock';
import { StateBadge } from '../components/StateBadge';
import { useUi } from '../stores/uiStore';
import { Button, Card, IconButton, Switch, toast } from '../ui';
import { ConfinementLine } from './ConfinementPanel';
import { SignIn } from './SignIn';
import { isRemoteTransport, TRANSPORTS } from '@shared/transports';

const ms = (v: number) => (v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v)} ms`);

export function ServerRowCard({ row }: { row: ServerRow }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ui = useUi();
  const invalidate = () => void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
  const setEnabled = useMutation(trpc.servers.setEnabled.mutationOptions({ onSuccess: invalidate }));
  const refresh = useMutation(
    trpc.servers.refresh.mutationOptions({
      onSuccess: (s) => {
        invalidate();
        toast({
          tone: 'success',
          title: `Reloaded the tool list of ${row.config.name}`,
          description: `${s?.toolCount ?? 0} tools listed; the server kept running`,
        });
      },
    }),
  );
  const restart = useMutation(
    trpc.servers.restart.mutationOptions({
      onSuccess: (s) => {
        invalidate();
        if (s?.state === 'ready')
          toast({
            tone: 'success',
            title: `${row.config.name} is running`,
            description: `${s.toolCount} tools`,
          });
      },
    }),
  );
  const { config, status } = row;
  const ready = status?.state === 'ready';
  const failed = config.enabled && status?.state === 'failed';
  const p50 = status?.metrics.p50Ms ?? null;
  return (
    <li data-testid={`server-${config.name}`} aria-label={`Server ${config.name}`}>
      <Card className={failed ? 'server-card failed' : 'server-card'}>
        <div className="server-head">
          <div className="server-titles">
            <div className="server-name-row">
              <McpIcon src={row.icon} />
              <h3 className="server-name">{config.name}</h3>
              <StateBadge status={status} enabled={config.enabled} />
              {config.trust && <span className="ui-badge tone-warning">trusted command</span>}
            </div>
            <code className="command-line" title={row.commandLine}>
              {row.commandLine}
            </code>
          </div>
          <div className="server-actions">
            <Switch
              label={`Enable ${config.name}`}
              hideLabel
              checked={config.enabled}
              disabled={setEnabled.isPending}
              onCheckedChange={(enabled) => setEnabled.mutate({ name: config.name, enabled })}
            />
            <Button
              size="sm"
              variant="secondary"
              icon={<Wrench size={14} />}
              onClick={() => {
                ui.selectServer(config.name);
                ui.navigate('tools');
              }}
            >
              Tools
            </Button>
            <IconButton
              size="sm"
              label="Logs"
              icon={<ScrollText size={15} />}
              onClick={() => ui.showLogs(config.name)}
            />
            {!failed && (
              <IconButton
                size="sm"
                // It asks the running server for its tools again; it does not restart it.
                label="Reload tool list"
                icon={<RefreshCw size={15} className={refresh.isPending ? 'spin' : undefined} />}
                disabled={!ready || refresh.isPending}
                onClick={() => refresh.mutate({ name: config.name })}
              />
            )}
            <IconButton
              size="sm"
              label="Edit"
              icon={<Pencil size={15} />}
              onClick={() => ui.edit({ mode: 'edit', name: config.name })}
            />
            <IconButton
              size="sm"
              label="Remove"
              variant="ghost"
              className="danger-hover"
              icon={<Trash2 size={15} />}
              onClick={() => ui.confirmRemove(config.name)}
            />
          </div>
        </div>
        <div className="meta server-meta">
          {ready ? (
            <>
              <span>{status.toolCount} tools</span>
              <span>{row.tokenCost.toLocaleString()} schema tokens</span>
              {status.connectMs !== undefined && (
                <span title="Time to connect and list tools">started in {ms(status.connectMs)}</span>
              )}
              {p50 !== null && <span title="Median tool-call latency">p50 {ms(p50)}</span>}
            </>
          ) : (
            <span>{TRANSPORTS[config.transport].label}</span>
          )}
          {status?.serverInfo && (
            <span>
              {shown(status.serverInfo.name)} {shown(status.serverInfo.version)}
            </span>
          )}
          {status?.protocolVersion && (
            <span title="The MCP revision this session negotiated">MCP {status.protocolVersion}</span>
          )}
        </div>
        <ConfinementLine row={row} />
        {failed && status.error && (
          <ServerErrorBlock
            error={status.error}
            retrying={restart.isPending}
            onRetry={() => restart.mutate({ name: config.name })}
          />
        )}
        {isRemoteTransport(config.transport) && (
          <SignIn server={config.name} needsAuth={status?.error?.code === 'auth_required'} />
        )}
        <ErrorNote error={setEnabled.error ?? refresh.error ?? restart.error} />
      </Card>
    </li>
  );
}
