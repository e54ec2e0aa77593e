// Tools: each server's tools by friendly name, with what they say about themselves (annotation badges),
// search, and a switch per tool. A tool that is off says why in plain words (off by default because it
// may change things, held back because it is new, turned off, …). A switch reconfigures the live
// session in place: the server keeps running. A long list (a server with thousands of tools) is
// virtualised in the page's scroll: only the rows on screen are rendered, and a key in the search
// re-renders only the rows whose tool changed, after the field shows the key (a deferred filter).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Search, Wrench } from 'lucide-react';
import {
  forwardRef,
  memo,
  useCallback,
  useDeferredValue,
  useId,
  useMemo,
  useState,
  type ComponentProps,
} from 'react';
import { Virtuoso, type ItemProps } from 'react-virtuoso';
import type { WireTool } from '@shared/wire';
import { escapeUntrusted as visible, jsonForTerminal } from '@shared/untrustedText';

/** A tool as the list shows it: its input schema shows in its details. */
type ListedTool = Omit<WireTool, 'inputSchema'> & { inputSchema?: WireTool['inputSchema'] };
import { useTRPC } from '../api/trpc';
import { AnnotationBadges } from '../components/AnnotationBadges';
import { ErrorNote } from '../components/ErrorNote';
import { McpIcon } from '../components/McpIcon';
import { StateBadge } from '../components/StateBadge';
import { useUi } from '../stores/uiStore';
import { Button, Callout, EmptyState, PageHeader, Switch } from '../ui';
import { CliHint } from './CliHint';
import { ServerTabs } from './ServerTabs';
import { titleOf } from '../shell/screens';

const OFF_TEXT: Record<string, string> = {
  'safe-default':
    'Off by default: it may change or delete things. Turn it on to let the model use it; each call still asks you first.',
  'new-tool':
    'Held back: this tool appeared after you set the server up. Turn it on if you want the model to use it.',
  'turned-off': 'Off: turned off for this server.',
  'not-included': 'Off: this server runs only the tools picked for it.',
  'server-disabled': 'Off: the server is disabled.',
};

export const offText = (t: Omit<WireTool, 'inputSchema'>): string | undefined =>
  t.enabled ? undefined : ((t.off && OFF_TEXT[t.off.kind]) ?? t.off?.text ?? t.excludedReason ?? 'Off.');

export function ToolsScreen() {
  const ui = useUi();
  return (
    <section aria-labelledby="tools-title" data-testid="tools-screen">
      <PageHeader
        id="tools-title"
        title={titleOf('tools')}
        description="What each server offers the model. Destructive tools start off; every call of a tool that may change things asks you first, unless you allow it always."
      />
      <ServerTabs
        toolCounts
        empty={
          <EmptyState
            icon={<Wrench size={24} />}
            title="No servers, so no tools"
            cli="mooring mcp tools --json"
            actions={
              <Button variant="primary" onClick={() => ui.navigate('servers')}>
                Add a server
              </Button>
            }
          >
            <p>Tools come from MCP servers. Add one on the Servers screen and its tools appear here.</p>
          </EmptyState>
        }
      >
        {(server) => <ServerTools server={server} />}
      </ServerTabs>
      <CliHint commands={['mooring mcp tools NAME']} />
    </section>
  );
}

function ServerTools({ server }: { server: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const servers = useQuery(trpc.servers.list.queryOptions());
  const row = servers.data?.find((r) => r.config.name === server);
  const tools = useQuery(trpc.tools.list.queryOptions({ server }));
  const [search, setSearch] = useState('');
  const toggle = useMutation(
    trpc.servers.setToolEnabled.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.tools.list.pathKey() });
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
      },
    }),
  );
  const accept = useMutation(
    trpc.tools.acceptChange.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.tools.list.pathKey() }),
    }),
  );
  const acceptChange = accept.mutate;
  const onAccept = useCallback((t: ListedTool) => acceptChange({ name: t.modelName }), [acceptChange]);
  const all = useMemo(
    () => [...(tools.data ?? [])].sort((a, b) => a.friendlyName.localeCompare(b.friendlyName)),
    [tools.data],
  );
  // The field shows each key at once; the list follows when the main thread has time.
  const query = useDeferredValue(search);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return all.filter(
      (t) =>
        !q ||
        t.tool.toLowerCase().includes(q) ||
        t.friendlyName.toLowerCase().includes(q) ||
        t.description.toLowerCase().includes(q),
    );
  }, [all, query]);
  const disabledDestructive = all.filter((t) => t.destructive && !t.enabled).length;
  const on = all.filter((t) => t.enabled).length;
  const mutate = toggle.mutate;
  // The switches stay enabled while a change is saved (a disabled switch drops the keyboard's focus to the
  // page): a second flip waits until the first is saved.
  const saving = toggle.isPending;
  const onToggle = useCallback(
    (t: ListedTool, enabled: boolean) => {
      if (!saving) mutate({ server: t.server, tool: t.tool, enabled });
    },
    [mutate, saving],
  );
  // The page scrolls (not the list): the virtualised list follows the app's main area.
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const inPage = useCallback((el: HTMLDivElement | null) => setScroller(el?.closest('main') ?? null), []);
  return (
    <div className="stack-md" ref={inPage}>
      <div className="tools-head">
        <h2 className="tools-server">{server}</h2>
        {row && <StateBadge status={row.status} enabled={row.config.enabled} />}
        <span className="muted small">
          {on} of {all.length} on
        </span>
      </div>
      {row && row.status?.state !== 'ready' && (
        <Callout tone="warning" title="Not connected">
          This server is not connected, so its tools are not listed. See Servers for why.
        </Callout>
      )}
      {disabledDestructive > 0 && (
        <Callout tone="warning" role="note" testId="destructive-banner">
          {disabledDestructive} destructive tool{disabledDestructive === 1 ? '' : 's'} disabled by default.
          Turn one on only if you want the model to be able to use it; each call still asks you first.
        </Callout>
      )}
      <div className="toolbar">
        <div className="searchbox">
          <Search size={15} aria-hidden />
          <input
            type="search"
            aria-label="Search tools"
            placeholder="Search tools"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <ErrorNote error={toggle.error ?? accept.error ?? tools.error} />
      {shown.length > VIRTUAL_FROM && scroller ? (
        <Virtuoso
          customScrollParent={scroller}
          data={shown}
          computeItemKey={(_, t) => t.modelName}
          components={{ List: ToolList, Item: ToolItem }}
          increaseViewportBy={400}
          itemContent={(_, t) => (
            <ToolRow tool={t} busy={accept.isPending} onToggle={onToggle} onAccept={onAccept} />
          )}
        />
      ) : (
        <ul className="plain tool-list">
          {shown.map((t) => (
            <li key={t.modelName} className={rowClass(t)} data-testid={`tool-${t.tool}`}>
              <ToolRow tool={t} busy={accept.isPending} onToggle={onToggle} onAccept={onAccept} />
            </li>
          ))}
        </ul>
      )}
      {tools.isSuccess && shown.length === 0 && <p className="muted">No tool matches.</p>}
    </div>
  );
}

/** Past this many rows the list is virtualised (fewer are all in the page, for find-in-page too). */
const VIRTUAL_FROM = 150;

const rowClass = (t: ListedTool) => `tool-row${t.enabled ? '' : ' off'}`;

const ToolList = forwardRef<HTMLUListElement, ComponentProps<'div'>>(function ToolList(
  { children, style, ...rest },
  ref,
) {
  return (
    <ul {...(rest as ComponentProps<'ul'>)} ref={ref} style={style} className="plain tool-list">
      {children}
    </ul>
  );
});

function ToolItem({ item, ...rest }: ItemProps<ListedTool>) {
  return (
    <li {...(rest as ComponentProps<'li'>)} className={rowClass(item)} data-testid={`tool-${item.tool}`} />
  );
}

/** One tool: rendered again only when its tool, or whether its buttons may be used, changes. */
const ToolRow = memo(function ToolRow({
  tool: t,
  busy,
  onToggle,
  onAccept,
}: {
  tool: ListedTool;
  busy: boolean;
  onToggle: (t: ListedTool, enabled: boolean) => void;
  onAccept: (t: ListedTool) => void;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  return (
    <>
      <Switch
        size="sm"
        label={`Enable ${t.tool}`}
        hideLabel
        checked={t.enabled}
        onCheckedChange={(enabled) => onToggle(t, enabled)}
      />
      <div className="tool-main">
        <div className="tool-title">
          <McpIcon src={t.icon} />
          {/* The name opens the tool's details: what it says it does, whole, and what it takes. */}
          <button
            type="button"
            className="tool-name-button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? <ChevronDown size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
            <strong>{visible(t.friendlyName)}</strong>
          </button>
          {t.friendlyName !== t.tool && <code className="tool-code">{visible(t.tool)}</code>}
          <AnnotationBadges flags={t} />
        </div>
        {!open && (
          <p className="muted clamp">{visible(t.description, { multiline: true }) || 'No description.'}</p>
        )}
        {open && <ToolDetails id={detailsId} tool={t} />}
        {t.changed && (
          <p className="tool-off" data-testid="tool-changed">
            Changed since Mooring first saw it: its next call asks you first, with what changed.{' '}
            <Button size="sm" disabled={busy} onClick={() => onAccept(t)}>
              Accept change
            </Button>
          </p>
        )}
        {!t.enabled && (
          <p className="tool-off" data-testid="tool-off-reason">
            {offText(t)}
          </p>
        )}
      </div>
      <span className="muted small tool-cost" title="Prompt tokens of its schema">
        {t.tokenCost} tokens
      </span>
    </>
  );
});

/** A tool's description in full and its input schema: the server's words, shown as text. */
function ToolDetails({ id, tool: t }: { id: string; tool: ListedTool }) {
  return (
    <div id={id} className="tool-details" data-testid="tool-details">
      <p className="tool-description">{visible(t.description, { multiline: true }) || 'No description.'}</p>
      <h4 className="tool-details-label">Input schema</h4>
      <pre className="tool-schema" tabIndex={0} aria-label={`Input schema of ${visible(t.tool)}`}>
        {t.inputSchema === undefined ? '(none listed)' : jsonForTerminal(t.inputSchema, 2)}
      </pre>
    </div>
  );
}
