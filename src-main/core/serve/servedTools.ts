// The "Tools" capability of Mooring's own server (ARCHITECTURE.md, `serve/`): every enabled tool of every connected server, under its
// `mcp__server__tool` name with its description and annotations, kept in step with the core's catalog (the
// SDK sends notifications/tools/list_changed when the set changes). A call goes through the tools service's
// one gated call — catalog, safety (audit with the client's identity, approval through the broker) and the
// session actor — exactly like a call from the chat. While a call waits for the user's approval, the
// external client is kept informed (progress) or answered before it gives up (approvalWait.ts).
import type {
  CallToolResult,
  McpServer,
  RegisteredTool,
  ServerContext,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';
import type { CatalogEntry } from '../catalog/catalog';
import { MooringError } from '../errors';
import type { ToolService } from '../calls/toolService';
import { callThroughCore } from './approvalWait';
import type { ServedReads } from './servedReads';
import { scopeAllows, type ClientIdentity } from './clientScope';
import type { ServedEvents } from './servedEvents';
import { errorResult, toCallToolResult } from './toolResults';

export { DEFAULT_APPROVAL_TIMEOUT_MS } from './approvalWait';

type Args = Record<string, unknown>;

/**
 * The model-facing JSON schema as the advertised input schema, without a second validation: the catalog
 * repairs and checks arguments (coercion, dot paths) exactly as it does for the chat, so rejecting here
 * first would refuse calls the chat accepts.
 */
export function jsonSchemaOnly(schema: Record<string, unknown>): StandardSchemaWithJSON<Args> {
  return {
    '~standard': {
      version: 1,
      vendor: 'mooring',
      validate: (value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { value: value as Args }
          : value === undefined
            ? { value: {} }
            : { issues: [{ message: 'the arguments must be a JSON object' }] },
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/**
 * Interactive-only tools are meant for a person in Mooring's own UI, not for another model: an MCP Apps
 * tool whose `_meta.ui.visibility` leaves out "model" (SEP-1865) is only callable from its app view.
 */
export function isInteractiveOnly(entry: CatalogEntry): boolean {
  const ui = (entry.handle.definition._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  return Array.isArray(ui?.visibility) && !ui.visibility.includes('model');
}

export interface ServedToolsOptions {
  tools: ToolService;
  /** The one listener on the core this process shares among its sessions. */
  events: ServedEvents;
  mcp: McpServer;
  /** A function: over stdio the client's name is known only after the handshake. */
  identity: () => ClientIdentity;
  approvalTimeoutMs: number;
  /** What each client read through this process (servedReads.ts). */
  reads: ServedReads;
}

/** Registers the core's tools on `mcp` and keeps them in step; returns the unsubscribe. */
export function serveCoreTools(opts: ServedToolsOptions): () => void {
  const { tools, mcp } = opts;
  const registered = new Map<string, { tool: RegisteredTool; key: string }>();

  const call = async (modelName: string, args: Args, ctx: ServerContext): Promise<CallToolResult> => {
    const who = opts.identity();
    try {
      const entry = tools.catalog().get(modelName);
      if (!entry || !entry.enabled || isInteractiveOnly(entry))
        throw new MooringError(
          'not_found',
          `Mooring has no tool "${modelName}" right now`,
          'List the tools again.',
        );
      // The scope again at call time: the tool may have changed (e.g. lost its read-only mark) since listing.
      const verdict = scopeAllows(who.scope, {
        name: modelName,
        readOnly: entry.readOnly,
        changed: entry.contractChanged,
      });
      if (!verdict.ok)
        throw new MooringError(
          'refused',
          `Mooring refused "${modelName}": ${verdict.reason}.`,
          'Ask the user for a token with a wider scope.',
        );
      const token = ctx.mcpReq._meta?.progressToken;
      const outcome = await callThroughCore(tools, entry, args, {
        client: who.name,
        readFrom: opts.reads.of(who.name),
        approvalTimeoutMs: opts.approvalTimeoutMs,
        signal: ctx.mcpReq.signal,
        ...(token !== undefined
          ? {
              onProgress: (p) =>
                void ctx.mcpReq
                  .notify({ method: 'notifications/progress', params: { progressToken: token, ...p } })
                  .catch(() => undefined),
            }
          : {}),
      });
      // The client has read this result: its next call to another server is a flow (docs/trust.md).
      opts.reads.record(who.name, {
        server: entry.server,
        tool: entry.tool,
        openWorld: entry.handle.definition.annotations?.openWorldHint !== false,
        ...(outcome.result.trust ?? {}),
      });
      return toCallToolResult(outcome.result);
    } catch (err) {
      return errorResult(err);
    }
  };

  const sync = () => {
    const scope = opts.identity().scope;
    const wanted = new Map<string, CatalogEntry>();
    for (const e of tools.catalog().active())
      if (
        !isInteractiveOnly(e) &&
        scopeAllows(scope, { name: e.modelName, readOnly: e.readOnly, changed: e.contractChanged }).ok
      )
        wanted.set(e.modelName, e);
    for (const [name, r] of registered)
      if (!wanted.has(name)) {
        r.tool.remove();
        registered.delete(name);
      }
    for (const [name, e] of wanted) {
      const key = JSON.stringify([e.title, e.description, e.inputSchema, e.annotations]);
      const have = registered.get(name);
      if (have?.key === key) continue;
      have?.tool.remove();
      const tool = mcp.registerTool(
        name,
        {
          ...(e.title ? { title: e.title } : {}),
          description: e.description || `${e.tool} (server "${e.server}")`,
          inputSchema: jsonSchemaOnly(e.inputSchema as Record<string, unknown>),
          ...(e.annotations ? { annotations: e.annotations } : {}),
          _meta: { 'mooring/server': e.server, 'mooring/tool': e.tool },
        },
        (args: Args, ctx: ServerContext) => call(name, args, ctx),
      );
      registered.set(name, { tool, key });
    }
  };

  // Coalesce a burst (several servers connecting, one refresh changing many tools) into one re-sync.
  let pending: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(pending);
    pending = setTimeout(sync, 25);
  };
  sync();
  const unsubscribe = opts.events.onChanged(schedule);
  return () => {
    clearTimeout(pending);
    unsubscribe();
  };
}
