// What a conversation's model is offered (docs/chat.md, "The tools of a conversation"): per server, how many
// of its tools go with each message and why the rest do not, and whether they go whole or load on demand
// behind tool_search (catalog/conversationTools.ts, with the thresholds of Settings > Limits). Read from the
// catalog as it is now, the way a conversation's tool runtime decides at its start; nothing is started or
// frozen by asking.
import type { ToolOffReason } from '@shared/wire';
import type { CatalogQuery, ToolService } from '../calls/toolService';
import { shouldDefer } from '../catalog/conversationTools';

export interface ServerTools {
  server: string;
  /** Its tools that go to the model. */
  offered: number;
  /** Its tools a person can switch (not those for MCP App views only). */
  total: number;
  /** The rest, counted by why they are off. */
  off: { kind: ToolOffReason['kind']; count: number }[];
}

export interface ToolsOverview {
  mode: 'direct' | 'deferred';
  offered: number;
  thresholds: { tools: number; tokens: number };
  servers: ServerTools[];
}

export function toolsOverview(
  tools: Pick<ToolService, 'catalog' | 'offReason'>,
  thresholds: { tools: number; tokens: number },
  query: CatalogQuery,
): ToolsOverview {
  const catalog = tools.catalog(query);
  const active = catalog.active();
  const byServer = new Map<string, ServerTools>();
  for (const e of catalog.switchable()) {
    let s = byServer.get(e.server);
    if (!s) byServer.set(e.server, (s = { server: e.server, offered: 0, total: 0, off: [] }));
    s.total++;
    if (e.enabled) {
      s.offered++;
      continue;
    }
    const kind = tools.offReason(e)?.kind ?? 'other';
    const counted = s.off.find((o) => o.kind === kind);
    if (counted) counted.count++;
    else s.off.push({ kind, count: 1 });
  }
  return {
    mode: shouldDefer(active, { maxTools: thresholds.tools, maxTokens: thresholds.tokens })
      ? 'deferred'
      : 'direct',
    offered: active.length,
    thresholds,
    servers: [...byServer.values()],
  };
}
