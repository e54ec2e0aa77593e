// The "Memory" capability of Mooring's own server: create, search, read and delete memory
// entries as tools, and every entry as a resource `mooring://memory/<id>`. Writes are tools without
// readOnlyHint, so a read-only client sees only search and read.
import { McpServer, ResourceTemplate, type CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MEMORY_TEXT_MAX, type MemoryEntry, type MemoryStore } from '../memory/memoryStore';
import { MooringError } from '../errors';
import { scopeAllows, type ClientIdentity } from './clientScope';
import { errorResult, textResult } from './toolResults';

export const MEMORY_URI_PREFIX = 'mooring://memory/';
export const memoryUri = (id: string) => `${MEMORY_URI_PREFIX}${id}`;

/** Runs a tool body; any error becomes a tool error result the client's model can read. */
export const guard =
  <A extends unknown[]>(fn: (...args: A) => Promise<CallToolResult>) =>
  async (...args: A): Promise<CallToolResult> => {
    try {
      return await fn(...args);
    } catch (err) {
      return errorResult(err);
    }
  };

const summary = (e: MemoryEntry) => ({
  id: e.id,
  title: e.title,
  tags: e.tags,
  createdAt: new Date(e.createdAt).toISOString(),
  source: e.source,
  uri: memoryUri(e.id),
});

const entryJson = (e: MemoryEntry) => ({ ...summary(e), text: e.text });

export function registerMemoryCapability(
  mcp: McpServer,
  opts: { memory: MemoryStore; identity: () => ClientIdentity },
): void {
  const { memory } = opts;
  const allowed = (name: string, readOnly: boolean) =>
    scopeAllows(opts.identity().scope, { name, readOnly }).ok;

  if (allowed('memory_create', false))
    mcp.registerTool(
      'memory_create',
      {
        title: 'Remember something',
        description:
          'Saves a memory entry in Mooring (shared with the Mooring app and its chats). Returns its id and resource URI.',
        inputSchema: z.object({
          text: z.string().min(1).max(MEMORY_TEXT_MAX).describe('What to remember'),
          title: z.string().max(200).optional().describe('A short label (default: the first line)'),
          tags: z.array(z.string().max(50)).max(20).optional(),
        }),
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
          openWorldHint: false,
        },
      },
      guard(async (args) => {
        const entry = await memory.create({ ...args, source: opts.identity().name });
        mcp.sendResourceListChanged();
        return textResult(`Saved memory ${entry.id} (${memoryUri(entry.id)}).`, { entry: summary(entry) });
      }),
    );

  if (allowed('memory_search', true))
    mcp.registerTool(
      'memory_search',
      {
        title: 'Search memory',
        description:
          'Searches Mooring memory by words in the title, text and tags (prefixes and small typos match). An empty query lists the newest entries.',
        inputSchema: z.object({
          query: z.string().max(500).describe('Words to look for; empty lists the newest'),
          limit: z.number().int().min(1).max(100).optional(),
        }),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      guard(async ({ query, limit }) => {
        const hits = await memory.search(query, { limit: limit ?? 20 });
        const lines = hits.map((h) => `- ${h.entry.id}: ${h.entry.title}`);
        return textResult(hits.length ? lines.join('\n') : 'No memory entry matches.', {
          entries: hits.map((h) => ({ ...summary(h.entry), score: h.score })),
        });
      }),
    );

  if (allowed('memory_read', true)) {
    mcp.registerTool(
      'memory_read',
      {
        title: 'Read a memory entry',
        description: 'Returns one Mooring memory entry, whole, by id.',
        inputSchema: z.object({ id: z.string().min(1) }),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      guard(async ({ id }) => {
        const entry = await memory.get(id);
        return textResult(entry.text, { entry: entryJson(entry) });
      }),
    );
    mcp.registerResource(
      'memory',
      new ResourceTemplate(`${MEMORY_URI_PREFIX}{id}`, {
        list: async () => ({
          resources: (await memory.list()).map((e) => ({
            uri: memoryUri(e.id),
            name: e.title,
            mimeType: 'text/plain',
            description: `Saved by ${e.source} on ${new Date(e.createdAt).toISOString()}`,
          })),
        }),
      }),
      { title: 'Mooring memory', description: 'Entries saved in Mooring memory', mimeType: 'text/plain' },
      async (uri, vars) => {
        const id = String(vars.id);
        const entry = await memory.get(id).catch(() => {
          throw new MooringError('not_found', `No memory entry at ${uri.href}`);
        });
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: entry.text }] };
      },
    );
  }

  if (allowed('memory_delete', false))
    mcp.registerTool(
      'memory_delete',
      {
        title: 'Forget a memory entry',
        description: 'Deletes one Mooring memory entry by id.',
        inputSchema: z.object({ id: z.string().min(1) }),
        annotations: {
          readOnlyHint: false,
          destructiveHint: true,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
      guard(async ({ id }) => {
        await memory.delete(id);
        mcp.sendResourceListChanged();
        return textResult(`Deleted memory ${id}.`);
      }),
    );
}
