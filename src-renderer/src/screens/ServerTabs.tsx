// One screen per server's worth of something (its tools, its log): the servers as a vertical tab list
// beside the selected server's panel. The selection is shared, so Tools and Logs open on the same server.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTRPC } from '../api/trpc';
import { useUi } from '../stores/uiStore';
import { TabPanel, Tabs } from '../ui';

export function ServerTabs(props: {
  /** What the screen shows when there is no server at all. */
  empty: ReactNode;
  /** Show each server's tool count beside its name. */
  toolCounts?: boolean;
  children: (server: string) => ReactNode;
}) {
  const trpc = useTRPC();
  const ui = useUi();
  const servers = useQuery(trpc.servers.list.queryOptions());
  const rows = servers.data ?? [];
  const names = rows.map((r) => r.config.name);
  const server =
    ui.selectedServer && names.includes(ui.selectedServer) ? ui.selectedServer : (names[0] ?? null);
  if (servers.isSuccess && names.length === 0) return <>{props.empty}</>;
  if (!server) return null;
  return (
    <Tabs
      variant="side"
      label="Servers"
      value={server}
      onValueChange={(v) => ui.selectServer(v)}
      items={rows.map((r) => ({
        value: r.config.name,
        label: (
          <>
            <span>{r.config.name}</span>
            {props.toolCounts && (
              <span className="side-count">{r.status?.state === 'ready' ? r.status.toolCount : '–'}</span>
            )}
          </>
        ),
      }))}
    >
      <TabPanel value={server}>{props.children(server)}</TabPanel>
    </Tabs>
  );
}
