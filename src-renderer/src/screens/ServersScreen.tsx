// Settings > Tools > MCP (issue 5): every server with its live state, tool count and schema token
// cost; add, edit, test, logs, refresh, enable/disable, remove with confirmation, import.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServerRow } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Modal } from '../components/Modal';
import { McpIcon } from '../components/McpIcon';
import { StateBadge } from '../components/StateBadge';
import { useUi } from '../stores/uiStore';
import { ImportDialog } from './ImportDialog';
import { LogsDialog } from './LogsDialog';
import { ServerForm } from './ServerForm';
import { SignIn } from './SignIn';
import { McpServerPanel } from './McpServerPanel';

function ServerRowView({ row }: { row: ServerRow }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ui = useUi();
  const invalidate = () => void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
  const setEnabled = useMutation(trpc.servers.setEnabled.mutationOptions({ onSuccess: invalidate }));
  const refresh = useMutation(trpc.servers.refresh.mutationOptions({ onSuccess: invalidate }));
  const { config, status } = row;
  const ready = status?.state === 'ready';
  return (
    <li className="server-row" data-testid={`server-${config.name}`} aria-label={`Server ${config.name}`}>
      <div className="server-main">
        <div className="server-title">
          <McpIcon src={row.icon} />
          <strong>{config.name}</strong>
          <StateBadge status={status} enabled={config.enabled} />
        </div>
        <code className="command-line">{row.commandLine}</code>
        <span className="muted">
          {ready
            ? `${status.toolCount} tools · ${row.tokenCost.toLocaleString()} schema tokens`
            : config.transport}
          {status?.serverInfo ? ` · ${status.serverInfo.name} ${status.serverInfo.version}` : ''}
          {status?.protocolVersion ? ` · MCP ${status.protocolVersion}` : ''}
        </span>
        {status?.state === 'failed' && status.error?.hint && <p className="hint">{status.error.hint}</p>}
        {config.transport !== 'stdio' && (
          <SignIn server={config.name} needsAuth={status?.error?.code === 'auth_required'} />
        )}
        <ErrorNote error={setEnabled.error ?? refresh.error} />
      </div>
      <div className="server-actions">
        <label className="switch">
          <input
            type="checkbox"
            aria-label={`Enable ${config.name}`}
            checked={config.enabled}
            disabled={setEnabled.isPending}
            onChange={(e) => setEnabled.mutate({ name: config.name, enabled: e.target.checked })}
          />
          enabled
        </label>
        <button
          type="button"
          onClick={() => {
            ui.selectServer(config.name);
            ui.navigate('tools');
          }}
        >
          Tools
        </button>
        <button type="button" onClick={() => ui.edit({ mode: 'edit', name: config.name })}>
          Edit
        </button>
        <button type="button" onClick={() => ui.showLogs(config.name)}>
          Logs
        </button>
        <button
          type="button"
          disabled={!ready || refresh.isPending}
          onClick={() => refresh.mutate({ name: config.name })}
        >
          Refresh
        </button>
        <button type="button" className="danger" onClick={() => ui.confirmRemove(config.name)}>
          Remove
        </button>
      </div>
    </li>
  );
}

function RemoveDialog({ name, onClose }: { name: string; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const remove = useMutation(
    trpc.servers.remove.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
        onClose();
      },
    }),
  );
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Remove ${name}?`}
      description="Its session closes, its entry and its keychain secrets are deleted."
      testId="remove-dialog"
    >
      <ErrorNote error={remove.error} />
      <div className="actions">
        <span className="spacer" />
        <button type="button" onClick={onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => remove.mutate({ name })}>
          Remove
        </button>
      </div>
    </Modal>
  );
}

export function ServersScreen() {
  const trpc = useTRPC();
  const list = useQuery(trpc.servers.list.queryOptions());
  const ui = useUi();
  const rows = list.data ?? [];
  const editing =
    ui.editing?.mode === 'edit'
      ? rows.find((r) => r.config.name === (ui.editing as { name: string }).name)
      : undefined;
  return (
    <section aria-labelledby="servers-title">
      <header className="screen-head">
        <div>
          <p className="crumbs">Settings › Tools › MCP</p>
          <h1 id="servers-title">MCP servers</h1>
        </div>
        <span className="spacer" />
        <button type="button" onClick={() => ui.openImport(true)}>
          Import…
        </button>
        <button type="button" className="primary" onClick={() => ui.edit({ mode: 'new' })}>
          Add server
        </button>
      </header>
      <ErrorNote error={list.error} />
      {list.isSuccess && rows.length === 0 && (
        <div className="empty" data-testid="empty-servers">
          <h2>No servers yet</h2>
          <p>
            An MCP server gives Mooring tools: files, search, a database, a browser. Add one by its command or
            URL, or bring the ones you already use.
          </p>
          <div className="actions center">
            <button type="button" className="primary" onClick={() => ui.edit({ mode: 'new' })}>
              Add a server
            </button>
            <button type="button" onClick={() => ui.openImport(true)}>
              Import from Claude Desktop
            </button>
          </div>
        </div>
      )}
      {ui.notice && (
        <div className="banner" role="status" data-testid="notice">
          {ui.notice}{' '}
          <button type="button" className="link" onClick={() => ui.notify(null)}>
            Dismiss
          </button>
        </div>
      )}
      <ul className="plain servers">
        {rows.map((r) => (
          <ServerRowView key={r.config.name} row={r} />
        ))}
      </ul>
      <McpServerPanel />
      {ui.editing?.mode === 'new' && <ServerForm onClose={() => ui.edit(null)} />}
      {editing && <ServerForm existing={editing.config} onClose={() => ui.edit(null)} />}
      {ui.importOpen && <ImportDialog onClose={() => ui.openImport(false)} />}
      {ui.logsFor && <LogsDialog server={ui.logsFor} onClose={() => ui.showLogs(null)} />}
      {ui.removing && <RemoveDialog name={ui.removing} onClose={() => ui.confirmRemove(null)} />}
    </section>
  );
}
