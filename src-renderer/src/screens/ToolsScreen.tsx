// Tool selection per server and per agent (issue 5): friendly name, description, annotation badges, a banner for
// disabled destructive tools, include/exclude toggles (they write the server's excludeTools), search.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '../api/trpc';
import { AnnotationBadges } from '../components/AnnotationBadges';
import { ErrorNote } from '../components/ErrorNote';
import { McpIcon } from '../components/McpIcon';
import { useUi } from '../stores/uiStore';
import { ToolSetsPanel } from './ToolSetsPanel';

export function ToolsScreen() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const ui = useUi();
  const servers = useQuery(trpc.servers.list.queryOptions());
  const names = (servers.data ?? []).map((r) => r.config.name);
  const server =
    ui.selectedServer && names.includes(ui.selectedServer) ? ui.selectedServer : (names[0] ?? null);
  const tools = useQuery({ ...trpc.tools.list.queryOptions({ server: server ?? '' }), enabled: !!server });
  const [search, setSearch] = useState('');
  const toggle = useMutation(
    trpc.servers.setToolEnabled.mutationOptions({
      onSuccess: () => {
        void qc.invalidateQueries({ queryKey: trpc.tools.list.pathKey() });
        void qc.invalidateQueries({ queryKey: trpc.servers.list.queryKey() });
      },
    }),
  );
  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (tools.data ?? []).filter(
      (t) =>
        !q ||
        t.tool.toLowerCase().includes(q) ||
        t.friendlyName.toLowerCase().includes(q) ||
        t.description.toLowerCase().includes(q),
    );
  }, [tools.data, search]);
  const disabledDestructive = (tools.data ?? []).filter((t) => t.destructive && !t.enabled).length;
  const row = servers.data?.find((r) => r.config.name === server);

  return (
    <section aria-labelledby="tools-title">
      <header className="screen-head">
        <div>
          <p className="crumbs">Settings › Tools › MCP</p>
          <h1 id="tools-title">Tool selection</h1>
        </div>
      </header>
      {names.length === 0 ? (
        <div className="empty">
          <h2>No servers, so no tools</h2>
          <button type="button" className="primary" onClick={() => ui.navigate('servers')}>
            Add a server
          </button>
        </div>
      ) : (
        <>
          <div className="tabs" role="tablist" aria-label="Servers">
            {names.map((n) => (
              <button
                key={n}
                role="tab"
                type="button"
                aria-selected={n === server}
                onClick={() => ui.selectServer(n)}
              >
                {n}
              </button>
            ))}
          </div>
          {row && row.status?.state !== 'ready' && (
            <p className="muted">This server is not connected, so its tools are not listed.</p>
          )}
          {disabledDestructive > 0 && (
            <div className="banner warn" role="note" data-testid="destructive-banner">
              {disabledDestructive} destructive tool{disabledDestructive === 1 ? '' : 's'} disabled by
              default. Turn one on only if you want the model to be able to use it; each call still asks you
              first.
            </div>
          )}
          <input
            className="search"
            type="search"
            aria-label="Search tools"
            placeholder="Search tools"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <ErrorNote error={toggle.error ?? tools.error} />
          <ul className="plain tools">
            {shown.map((t) => (
              <li
                key={t.modelName}
                className={`tool-row${t.enabled ? '' : ' off'}`}
                data-testid={`tool-${t.tool}`}
              >
                <label className="switch">
                  <input
                    type="checkbox"
                    aria-label={`Enable ${t.tool}`}
                    checked={t.enabled}
                    disabled={toggle.isPending}
                    onChange={(e) =>
                      toggle.mutate({ server: t.server, tool: t.tool, enabled: e.target.checked })
                    }
                  />
                </label>
                <div className="tool-main">
                  <div>
                    <McpIcon src={t.icon} />
                    <strong>{t.friendlyName}</strong> <code className="muted">{t.tool}</code>{' '}
                    <AnnotationBadges flags={t} />
                  </div>
                  <p className="muted clamp">{t.description || 'No description.'}</p>
                  {!t.enabled && t.excludedReason && <p className="muted small">Off: {t.excludedReason}</p>}
                </div>
                <span className="muted small">{t.tokenCost} tokens</span>
              </li>
            ))}
          </ul>
          {tools.isSuccess && shown.length === 0 && <p className="muted">No tool matches.</p>}
          <ToolSetsPanel />
        </>
      )}
    </section>
  );
}
