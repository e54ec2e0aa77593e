// Logs: one server's stderr, its own log messages, and Mooring's lifecycle lines about it (spawned,
// handshake, protocol version, tools listed, list_changed, reconnect, closed), live. On request, the
// JSON-RPC traffic too, with known secrets masked by the core. Filter, copy, save to a file. Every
// line came from a server or its process and is rendered as text.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Download, ScrollText, Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LogLine } from '@shared/session';
import { LOG_LEVELS, type LogLevel } from '@shared/settings';
import { useTRPC } from '../api/trpc';
import { ErrorNote } from '../components/ErrorNote';
import { Button, EmptyState, PageHeader, Switch, copyText, toast } from '../ui';
import { CliHint } from './CliHint';
import { ServerTabs } from './ServerTabs';
import { titleOf } from '../shell/screens';

const SOURCES: { value: LogLine['source'] | 'all'; label: string }[] = [
  { value: 'all', label: 'Everything' },
  { value: 'stderr', label: 'stderr' },
  { value: 'host', label: 'Mooring' },
  { value: 'server', label: 'Server messages' },
  { value: 'rpc', label: 'JSON-RPC' },
];
const SEVERE = new Set(['warning', 'error', 'critical', 'alert', 'emergency']);

const lineText = (l: LogLine) => `${new Date(l.at).toISOString()} ${l.source} ${l.level} ${l.text}`;

export function LogsScreen() {
  return (
    <section aria-labelledby="logs-title">
      <PageHeader
        id="logs-title"
        title={titleOf('logs')}
        description="What each server writes to stderr, the messages it sends, and what Mooring did with it. Known secrets are shown as [redacted]."
        actions={<LogLevelPicker />}
      />
      <ServerTabs
        empty={
          <EmptyState
            icon={<ScrollText size={24} />}
            title="No servers, so no logs"
            cli="mooring mcp test NAME"
          >
            <p>Each server's log appears here once it is added.</p>
          </EmptyState>
        }
      >
        {(server) => <ServerLog server={server} />}
      </ServerTabs>
      <CliHint commands={['mooring mcp test NAME --json']} />
    </section>
  );
}

/** The level every server logs at unless its own form names one (MCP logging's eight levels). */
function LogLevelPicker() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const settings = useQuery(trpc.settings.queryOptions());
  const set = useMutation(
    trpc.servers.setDefaultLogLevel.mutationOptions({
      onSuccess: () => void qc.invalidateQueries({ queryKey: trpc.settings.queryKey() }),
    }),
  );
  return (
    <label className="inline-field">
      <span>Servers log at</span>
      <select
        className="narrow-select"
        value={settings.data?.logLevel ?? 'info'}
        disabled={!settings.data || set.isPending}
        onChange={(e) => set.mutate({ level: e.target.value as LogLevel })}
      >
        {LOG_LEVELS.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

function ServerLog({ server }: { server: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const logs = useQuery(trpc.servers.logs.queryOptions({ name: server }));
  const trace = useQuery(trpc.servers.traceState.queryOptions({ name: server }));
  const setTrace = useMutation(
    trpc.servers.setTrace.mutationOptions({
      onSuccess: () =>
        void qc.invalidateQueries({ queryKey: trpc.servers.traceState.queryKey({ name: server }) }),
    }),
  );
  const [query, setQuery] = useState('');
  const [source, setSource] = useState<(typeof SOURCES)[number]['value']>('all');
  const [severeOnly, setSevereOnly] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (logs.data ?? []).filter(
      (l) =>
        (source === 'all' || l.source === source) &&
        (!severeOnly || SEVERE.has(l.level)) &&
        (!q || l.text.toLowerCase().includes(q)),
    );
  }, [logs.data, query, source, severeOnly]);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [shown.length]);
  const text = () => shown.map(lineText).join('\n');
  const save = () => {
    const url = URL.createObjectURL(new Blob([`${text()}\n`], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${server}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="stack-sm" data-testid="logs-view">
      <div className="toolbar">
        <div className="searchbox">
          <Search size={15} aria-hidden />
          <input
            type="search"
            aria-label="Filter log lines"
            placeholder="Filter"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <select
          aria-label="Source"
          value={source}
          onChange={(e) => setSource(e.target.value as typeof source)}
          className="narrow-select"
        >
          {SOURCES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <Switch
          size="sm"
          label="Warnings and errors only"
          checked={severeOnly}
          onCheckedChange={setSevereOnly}
        />
        {/* Copy and Save stay together at the end, also when a narrow window wraps the bar. */}
        <span className="toolbar-end">
          <Button
            size="sm"
            icon={<Copy size={14} />}
            onClick={async () => {
              if (await copyText(text())) toast({ tone: 'success', title: `Copied ${shown.length} lines` });
            }}
          >
            Copy
          </Button>
          <Button size="sm" icon={<Download size={14} />} onClick={save}>
            Save to file
          </Button>
        </span>
      </div>
      <Switch
        size="sm"
        label="Record JSON-RPC traffic"
        description="Every message to and from this server, with known secrets masked. Off again when Mooring restarts."
        checked={trace.data?.on ?? false}
        disabled={setTrace.isPending}
        onCheckedChange={(on) => setTrace.mutate({ name: server, on })}
      />
      <ErrorNote error={logs.error ?? setTrace.error} />
      <div className="log-view" role="log" aria-live="polite" aria-label={`Log of ${server}`} tabIndex={0}>
        {shown.length === 0 && (
          <p className="muted">No log lines{query || source !== 'all' || severeOnly ? ' match' : ' yet'}.</p>
        )}
        {shown.map((l, i) => (
          <div key={i} className={`log-line level-${l.level} source-${l.source}`}>
            <time dateTime={new Date(l.at).toISOString()}>{new Date(l.at).toLocaleTimeString()}</time>
            <span className="log-source">{l.source === 'host' ? 'mooring' : l.source}</span>
            <span className="log-text">{l.text}</span>
          </div>
        ))}
        <div ref={end} />
      </div>
    </div>
  );
}
