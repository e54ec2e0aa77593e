// What Mooring's own server serves of its connected servers beyond tools (ARCHITECTURE.md, `serve/`):
// - prompts, named like tools: `mcp__<server>__<prompt>`; `prompts/get` goes to that server;
// - resources, under `mooring://servers/<server>/<the server's own URI>` (one resource template lists them
//   all and reads any of them through its server);
// - completions for those prompts' arguments and for the template's `server` part (the server's own
//   `completion/complete` for prompt arguments);
// - logging: a 2025 client that sets a level gets the servers' `notifications/message`, each with the
//   server's name as its logger (2026-07-28 has no unsolicited messages: MCP 2026-07-28, "Logging").
// A client sees a server's prompts and resources only if its scope lets it see that server's tools
// (clientScope.ts); all of these only read, so a read-only scope keeps them.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type CompleteResult,
  type McpServer,
  type Prompt,
} from '@modelcontextprotocol/server';
import type { ClientIdentity, ClientScope } from './clientScope';
import type { ServedServer, ServedFeatures } from './servedCore';

export const SERVED_URI_PREFIX = 'mooring://servers/';
const SERVED_TEMPLATE = `${SERVED_URI_PREFIX}{server}/{+uri}`;
const PROMPT_PREFIX = 'mcp__';
const MODERN = '2026-07-28';
const NAME = /^[A-Za-z0-9_-]+$/;

export const servedPromptName = (server: string, prompt: string) => `${PROMPT_PREFIX}${server}__${prompt}`;
export const servedUri = (server: string, uri: string) => `${SERVED_URI_PREFIX}${server}/${uri}`;

/** `mcp__<server>__<name>` → its parts, when the server is one of `servers`. */
function splitPrompt(
  name: string,
  servers: ServedServer[],
): { server: ServedServer; prompt: string } | undefined {
  if (!name.startsWith(PROMPT_PREFIX)) return undefined;
  const rest = name.slice(PROMPT_PREFIX.length);
  // Server names may hold "__"? They are [A-Za-z0-9_-]; take the longest server name that matches.
  const server = servers
    .filter((s) => rest.startsWith(`${s.name}__`))
    .sort((a, b) => b.name.length - a.name.length)[0];
  return server ? { server, prompt: rest.slice(server.name.length + 2) } : undefined;
}

function splitUri(uri: string, servers: ServedServer[]): { server: ServedServer; uri: string } | undefined {
  if (!uri.startsWith(SERVED_URI_PREFIX)) return undefined;
  const rest = uri.slice(SERVED_URI_PREFIX.length);
  const slash = rest.indexOf('/');
  const name = slash > 0 ? rest.slice(0, slash) : '';
  const server = servers.find((s) => s.name === name);
  return server && NAME.test(name) ? { server, uri: rest.slice(slash + 1) } : undefined;
}

/** Whether the scope lets the client see any tool of `server` (then its prompts and resources too). */
export function scopeSeesServer(scope: ClientScope, server: string): boolean {
  if (!scope.tools) return true;
  const prefix = `mcp__${server}__`;
  return scope.tools.some((p) =>
    p.endsWith('*')
      ? prefix.startsWith(p.slice(0, -1)) || p.slice(0, -1).startsWith(prefix)
      : p.startsWith(prefix),
  );
}

const notFound = (what: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, `${what} not found`);

/**
 * Registers the served features on one connection's server, before it connects (capabilities are declared then).
 * Returns the unsubscribe from the core's log and change events.
 */
export function serveServerFeatures(
  mcp: McpServer,
  opts: { features: ServedFeatures; identity: () => ClientIdentity },
): () => void {
  const { features } = opts;
  const visible = (kind: 'prompts' | 'resources' | 'completions') =>
    features.servers().filter((s) => s.offers()[kind] && scopeSeesServer(opts.identity().scope, s.name));

  mcp.server.registerCapabilities({ prompts: { listChanged: true }, completions: {}, logging: {} });

  mcp.server.setRequestHandler('prompts/list', async () => {
    const lists = await Promise.all(
      visible('prompts').map(async (s) =>
        (await s.listPrompts().catch(() => [] as Prompt[])).map((p) => ({
          ...p,
          name: servedPromptName(s.name, p.name),
          ...(p.title ? { title: `${p.title} (${s.name})` } : {}),
        })),
      ),
    );
    return { prompts: lists.flat() };
  });

  mcp.server.setRequestHandler('prompts/get', async (req) => {
    const target = splitPrompt(req.params.name, visible('prompts'));
    if (!target) throw notFound(`Prompt ${req.params.name}`);
    const args = Object.fromEntries(
      Object.entries(req.params.arguments ?? {}).map(([k, v]) => [k, String(v)]),
    );
    return target.server.getPrompt(target.prompt, args);
  });

  mcp.server.setRequestHandler('completion/complete', async (req): Promise<CompleteResult> => {
    const ref = req.params.ref;
    if (ref.type === 'ref/prompt') {
      const target = splitPrompt(ref.name, visible('completions'));
      if (!target) return { completion: { values: [] } };
      const completion = await target.server.complete({
        ...req.params,
        ref: { type: 'ref/prompt', name: target.prompt },
      });
      return { completion };
    }
    if (ref.uri === SERVED_TEMPLATE && req.params.argument.name === 'server') {
      const typed = req.params.argument.value;
      const values = visible('resources')
        .map((s) => s.name)
        .filter((n) => n.startsWith(typed));
      return { completion: { values, total: values.length, hasMore: false } };
    }
    return { completion: { values: [] } };
  });

  mcp.registerResource(
    'servers',
    new ResourceTemplate(SERVED_TEMPLATE, {
      list: async () => {
        const lists = await Promise.all(
          visible('resources').map(async (s) =>
            (await s.listResources().catch(() => [])).map((r) => ({
              ...r,
              uri: servedUri(s.name, r.uri),
              name: `${s.name}: ${r.name}`,
            })),
          ),
        );
        return { resources: lists.flat() };
      },
    }),
    {
      title: "Connected servers' resources",
      description: 'The resources of every server Mooring is connected to, under their server name.',
    },
    async (uri) => {
      const target = splitUri(uri.href, visible('resources'));
      if (!target) throw notFound(`Resource ${uri.href}`);
      const res = await target.server.readResource(target.uri);
      return {
        ...res,
        contents: res.contents.map((c) => ({ ...c, uri: servedUri(target.server.name, c.uri) })),
      };
    },
  );

  const stopLogs = features.onLog((server, line) => {
    // 2026-07-28 connections have no unsolicited messages; the SDK filters by the level the client set.
    if (!mcp.isConnected() || mcp.server.getNegotiatedProtocolVersion() === MODERN) return;
    if (!scopeSeesServer(opts.identity().scope, server)) return;
    void mcp.server
      .sendLoggingMessage({ level: line.level, logger: server, data: line.text })
      .catch(() => undefined);
  });
  const stopChanges = features.onChanged((what) => {
    if (!mcp.isConnected()) return;
    if (what === 'prompts') mcp.sendPromptListChanged();
    else mcp.sendResourceListChanged();
  });
  return () => {
    stopLogs();
    stopChanges();
  };
}
