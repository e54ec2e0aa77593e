// Servers: every configured MCP server with its live state; add (form or JSON), import, test, retry,
// logs, enable, remove with confirmation. New servers start with the default safe set (destructive tools
// off), and the notice about it counts what is still off, live.
import { ManagedPolicyBanner } from './ConfinementPanel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AppWindow, Download, Plus, Server } from 'lucide-react';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Modal } from '../components/Modal';
import { useUi } from '../stores/uiStore';
import { Button, Callout, EmptyState, PageHeader } from '../ui';
import { CliHint } from './CliHint';
import { DetectedClientsDialog, DetectedClientsSection, ImportFromClaudeButton } from './DetectedClients';
import { ImportDialog } from './ImportDialog';
import { ServerForm } from './ServerForm';
import { ServersFileProblem } from './ServersFileProblem';
import { ServerRowCard } from './ServerRowCard';
import { titleOf } from '../shell/screens';

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

/** "fs: 3 destructive tools are off": read from the live tool list, so it follows every toggle. */
function SafeDefaultsNotice({ servers }: { servers: string[] }) {
  const trpc = useTRPC();
  const ui = useUi();
  const tools = useQuery(trpc.tools.list.queryOptions({}));
  const off = servers
    .map((s) => ({
      server: s,
      count: (tools.data ?? []).filter((t) => t.server === s && t.destructive && !t.enabled).length,
    }))
    .filter((x) => x.count > 0);
  if (!tools.data || off.length === 0) return null;
  return (
    <Callout
      tone="info"
      role="status"
      testId="notice"
      title="The default safe set is on"
      actions={
        <>
          <Button
            size="sm"
            onClick={() => {
              ui.selectServer(off[0]!.server);
              ui.navigate('tools');
            }}
          >
            Review tools
          </Button>
          <Button size="sm" variant="ghost" onClick={() => ui.notify(null)}>
            Dismiss
          </Button>
        </>
      }
    >
      {off
        .map((x) => `${x.server}: ${x.count} destructive tool${x.count === 1 ? '' : 's'} disabled by default`)
        .join(' · ')}
      . Turn one on in Tools if you want the model to be able to use it; each call still asks you first.
    </Callout>
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
      <PageHeader
        id="servers-title"
        title={titleOf('servers')}
        description="Each MCP server gives the model tools: files, search, a database, a browser. Mooring keeps one session to each and restarts it when it breaks."
        actions={
          <>
            <Button icon={<AppWindow size={16} />} onClick={() => ui.openDetect(true)}>
              From other apps
            </Button>
            <Button icon={<Download size={16} />} onClick={() => ui.openImport(true)}>
              Import…
            </Button>
            <Button variant="primary" icon={<Plus size={16} />} onClick={() => ui.edit({ mode: 'new' })}>
              Add server
            </Button>
          </>
        }
      />
      <ManagedPolicyBanner />
      <ServersFileProblem error={list.error} />
      {ui.notice && <SafeDefaultsNotice servers={ui.notice.servers} />}
      {list.isSuccess && rows.length === 0 ? (
        <>
          <EmptyState
            testId="empty-servers"
            icon={<Server size={24} />}
            title="No servers yet"
            cli="mooring mcp add everything -- npx -y @modelcontextprotocol/server-everything"
            actions={
              <>
                <Button variant="primary" icon={<Plus size={16} />} onClick={() => ui.edit({ mode: 'new' })}>
                  Add a server
                </Button>
                <ImportFromClaudeButton />
              </>
            }
          >
            <p>
              An MCP server is a small program (or a web service) that gives Mooring tools: read your files,
              search the web, query a database. Add one by its command or URL, paste the JSON from its README,
              or bring the ones you already use in other apps.
            </p>
          </EmptyState>
          <DetectedClientsSection />
        </>
      ) : (
        <ul className="plain list servers">
          {rows.map((r) => (
            <ServerRowCard key={r.config.name} row={r} />
          ))}
        </ul>
      )}
      <CliHint commands={['mooring mcp list', 'mooring mcp test NAME']} />
      {ui.editing?.mode === 'new' && <ServerForm onClose={() => ui.edit(null)} />}
      {editing && <ServerForm existing={editing.config} onClose={() => ui.edit(null)} />}
      {ui.importOpen && <ImportDialog seed={ui.importSeed} onClose={() => ui.openImport(false)} />}
      {ui.detectOpen && <DetectedClientsDialog onClose={() => ui.openDetect(false)} />}
      {ui.removing && <RemoveDialog name={ui.removing} onClose={() => ui.confirmRemove(null)} />}
    </section>
  );
}
