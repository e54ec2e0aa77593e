// tools/list as the session actor reads it: every page, leniently, with the first page's cache hint, through
// the session's request handler (requestHandler.ts) like every other request.
import { z } from 'zod';
import type { ServerRequests, Tool } from './types';

const LenientToolsList = z.looseObject({
  tools: z.array(z.looseObject({ name: z.unknown(), inputSchema: z.unknown().optional() })),
  nextCursor: z.string().optional(),
  ttlMs: z.number().optional(),
});

/**
 * How long the list stays fresh (MCP 2026-07-28, "Caching": `ttlMs` on list results). Zero or absent means
 * "stale at once": the session then relies on change notifications (and, for a remote server, the
 * keepalive's listing) instead of polling. The SDK caps a server's TTL at 24 h; so does Mooring.
 */
export const MAX_LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** A server's text in a log line: one line, at most `max` characters. */
const clip = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** A refresh timer below this would let a server make Mooring list its tools in a tight loop. */
export const MIN_LIST_TTL_MS = 1000;

export interface ToolsListing {
  tools: Tool[];
  /** The TTL to honour, clamped; undefined when the result carried none (or 0). */
  ttlMs?: number;
}

/**
 * tools/list without the SDK's all-or-nothing result validation: its strict schema rejects the whole
 * list when one tool's inputSchema lacks `type: "object"`, hiding every tool of the server. Each tool
 * is kept if it has a name (a tool without one is refused with a log line); the catalog repairs or
 * excludes a bad schema, with a visible reason.
 */
export async function listToolsLeniently(
  requests: { requestNow: ServerRequests['request'] },
  opts: { timeout: number; warn: (text: string) => void },
): Promise<ToolsListing> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  for (let page = 0; page < 64; page++) {
    const res = await requests.requestNow(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      LenientToolsList,
      { timeoutMs: opts.timeout },
    );
    if (page === 0 && res.ttlMs !== undefined && res.ttlMs > 0)
      ttlMs = Math.min(Math.max(res.ttlMs, MIN_LIST_TTL_MS), MAX_LIST_TTL_MS);
    for (const [index, raw] of res.tools.entries()) {
      if (typeof raw.name !== 'string' || !raw.name.trim()) {
        // Nothing can call a tool without a name, and a blank one would still get a model-facing name.
        const what = typeof raw.description === 'string' ? `: "${clip(raw.description, 80)}"` : '';
        opts.warn(
          `refused tool #${index + 1} of tools/list: its name is ${typeof raw.name === 'string' ? 'empty' : 'missing'}, so nothing could call it${what}`,
        );
        continue;
      }
      const schema = raw.inputSchema;
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
        opts.warn(`tool "${raw.name}" has no valid inputSchema; treating it as taking no arguments`);
        tools.push({ ...raw, inputSchema: { type: 'object' } } as Tool);
      } else tools.push(raw as Tool);
    }
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  return { tools, ...(ttlMs !== undefined ? { ttlMs } : {}) };
}
