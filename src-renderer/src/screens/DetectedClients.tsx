// Servers you already use in other apps: the MCP configs Mooring found on this machine (Claude Desktop,
// Claude Code, Cursor, VS Code, Windsurf, Zed, Goose, LM Studio), each with its servers, and Review to
// import them through the usual consent. Shown on first launch (no servers yet) and on request.
import { useMutation, useQuery } from '@tanstack/react-query';
import { AppWindow, Download } from 'lucide-react';
import type { DetectedClient } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { useUi } from '../stores/uiStore';
import { Button, Card, Dialog } from '../ui';

function ClientCard({ c, onReview, busy }: { c: DetectedClient; onReview: () => void; busy: boolean }) {
  const fresh = c.servers.filter((s) => !s.exists).length;
  return (
    <li data-testid={`detected-${c.client}`}>
      <Card className="detected-item">
        <div className="detected-text">
          <strong>{c.label}</strong>
          <div className="muted small">
            {c.error
              ? c.error
              : `${c.servers.length} server${c.servers.length === 1 ? '' : 's'}${
                  c.servers.length ? `: ${c.servers.map((s) => s.name).join(', ')}` : ''
                }`}
          </div>
          <div className="detected-path" title={c.path}>
            {c.path}
          </div>
        </div>
        {!c.error && fresh > 0 && (
          <Button
            size="sm"
            variant="primary"
            loading={busy}
            onClick={onReview}
            aria-label={`Review ${c.label}`}
          >
            Review
          </Button>
        )}
      </Card>
    </li>
  );
}

/** The list itself; `compact` inside the empty state, full in the dialog. */
export function DetectedClientsList({ onPicked }: { onPicked?: () => void }) {
  const trpc = useTRPC();
  const ui = useUi();
  const detect = useQuery(trpc.clients.detect.queryOptions());
  const read = useMutation(
    trpc.clients.read.mutationOptions({
      onSuccess: (file) => {
        onPicked?.();
        ui.openImport(true, file);
      },
    }),
  );
  if (detect.isLoading) return <p className="muted">Looking for other apps' configs…</p>;
  const found = detect.data ?? [];
  return (
    <div className="stack-sm" data-testid="detected-clients">
      <ErrorNote error={detect.error ?? read.error} />
      {found.length === 0 ? (
        <p className="muted">
          No Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed, Goose or LM Studio config was found
          in their usual places.
        </p>
      ) : (
        <ul className="plain detected">
          {found.map((c) => (
            <ClientCard
              key={c.path}
              c={c}
              busy={read.isPending && read.variables?.path === c.path}
              onReview={() => read.mutate({ path: c.path })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

export function DetectedClientsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Servers from your other apps"
      description="Mooring looked where each app keeps its MCP config. Review shows every command before anything is added."
      size="lg"
      testId="detect-dialog"
      footer={<Button onClick={onClose}>Close</Button>}
    >
      <DetectedClientsList onPicked={onClose} />
    </Dialog>
  );
}

/** The first-launch section under the empty state: only when something was found. */
export function DetectedClientsSection() {
  const trpc = useTRPC();
  const detect = useQuery(trpc.clients.detect.queryOptions());
  if (!detect.data?.some((c) => c.servers.length > 0)) return null;
  return (
    <section aria-labelledby="detected-title" className="detected-section">
      <h2 id="detected-title" className="section-title">
        <AppWindow size={18} aria-hidden /> Found on this machine
      </h2>
      <p className="muted">These apps already have MCP servers. Bring them to Mooring:</p>
      <DetectedClientsList />
    </section>
  );
}

/**
 * "Import from Claude Desktop": the config found in Claude Desktop's own place goes straight to the import
 * consent (every command shown before anything is added); with none found, the import dialog asks for the
 * file.
 */
export function ImportFromClaudeButton() {
  const trpc = useTRPC();
  const ui = useUi();
  const detect = useQuery(trpc.clients.detect.queryOptions());
  const claude = detect.data?.find((c) => c.client === 'claude-desktop' && !c.error);
  const read = useMutation(
    trpc.clients.read.mutationOptions({ onSuccess: (file) => ui.openImport(true, file) }),
  );
  return (
    <>
      <Button
        icon={<Download size={16} />}
        loading={read.isPending}
        onClick={() => (claude ? read.mutate({ path: claude.path }) : ui.openImport(true))}
      >
        Import from Claude Desktop
      </Button>
      <ErrorNote error={read.error} />
    </>
  );
}
