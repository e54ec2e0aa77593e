// Mooring as an MCP server (ARCHITECTURE.md, "The core, by room": serve/): one McpServer per external
// connection (a stdio client, or one HTTP session), holding the three capabilities — Memory, Sessions, and
// the tools of every connected server — over one shared core. Each connection carries its client's
// identity and scope; the transports (stdioServer.ts, httpServer.ts) only decide who it is. Connections
// hear the core through one shared listener (servedEvents.ts), never one each.
import { McpServer } from '@modelcontextprotocol/server';
import type { ServedCore } from './servedCore';
import type { ClientIdentity } from './clientScope';
import { serveServerFeatures } from './servedFeatures';
import { registerMemoryCapability } from './memoryCapability';
import { registerSessionsCapability } from './sessionsCapability';
import { ServedEvents } from './servedEvents';
import { ServedReads } from './servedReads';
import { DEFAULT_APPROVAL_TIMEOUT_MS, serveCoreTools } from './servedTools';

export const SERVER_INFO = { name: 'mooring', title: 'Mooring', version: '0.1.0' };

export type { ServedCore };

export interface MooringServerDeps {
  core: ServedCore;
  /** How long a call from an external client waits for the user's approval before it is refused. */
  approvalTimeoutMs?: number;
  /** `provider:model` for start_session when the client names none. */
  defaultModel?: string;
  /** The core's events, shared by every connection of this process (default: one for this connection). */
  events?: ServedEvents;
  /** What each client read, shared by every connection of this process (default: one for this connection). */
  reads?: ServedReads;
}

export interface MooringServerConnection {
  mcp: McpServer;
  /** Stops following the core's tool changes and closes the connection. */
  close(): Promise<void>;
}

const INSTRUCTIONS =
  'Mooring is a desktop MCP host. Through this one connection you can use its memory (memory_*), its ' +
  'conversations (sessions_*, start_session) and the tools of every server configured in Mooring, named ' +
  'mcp__<server>__<tool>. Calls that may change things wait for the user to approve them in Mooring.';

/**
 * A server for one connection. `identity` is a function because over stdio the client's name is known only
 * once it sent `initialize`; the scope is fixed for the connection.
 */
export function createMooringServer(
  deps: MooringServerDeps,
  identity: () => ClientIdentity,
): MooringServerConnection {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    instructions: INSTRUCTIONS,
  });
  const approvalTimeoutMs = deps.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  registerMemoryCapability(mcp, { memory: deps.core.memory, identity });
  registerSessionsCapability(mcp, {
    core: deps.core,
    identity,
    approvalTimeoutMs,
    ...(deps.defaultModel ? { defaultModel: deps.defaultModel } : {}),
  });
  const stopRelay = serveCoreTools({
    tools: deps.core.tools,
    events: deps.events ?? new ServedEvents(deps.core.tools),
    mcp,
    identity,
    approvalTimeoutMs,
    reads: deps.reads ?? new ServedReads(),
  });
  const stopFeatures = deps.core.servedFeatures
    ? serveServerFeatures(mcp, { features: deps.core.servedFeatures, identity })
    : () => undefined;
  return {
    mcp,
    async close() {
      stopRelay();
      stopFeatures();
      await mcp.close().catch(() => undefined);
    },
  };
}
