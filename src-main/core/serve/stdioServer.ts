// `mooring serve --stdio`: one external client on this process's stdin/stdout, in either protocol era
// (docs/decisions/006-protocol-eras.md). The SDK's stdio entry (`serveStdio`) lets the client's first exchange
// pin the connection's era — a 2025 client's `initialize` gets the session protocol, a 2026-07-28 client's
// `server/discover` (or first enveloped request) the stateless one — and builds Mooring's server for it. The
// client's identity is the name it gives (`initialize`'s clientInfo; a 2026 client's per-request `_meta`
// clientInfo, MCP "Lifecycle"), its scope comes from the command line. stdout carries only JSON-RPC;
// everything else goes to stderr.
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { ClientIdentity, ClientScope } from './clientScope';
import { FULL_SCOPE } from './clientScope';
import { createMooringServer, type MooringServerConnection, type MooringServerDeps } from './mooringServer';
import { ServedEvents } from './servedEvents';
import { ServedReads } from './servedReads';

export interface StdioServeOptions extends MooringServerDeps {
  scope?: ClientScope;
  stdin?: Readable;
  stdout?: Writable;
  onError?: (err: Error) => void;
}

export interface StdioServeHandle {
  /** Resolves when the client closes its end (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/**
 * The stdio transport with one addition: it remembers the client name a 2026-07-28 request carries in its
 * `_meta` envelope (MCP 2026-07-28, "Lifecycle": every request names its client), and tells when the pipe
 * closes. Everything else passes straight through.
 */
class ClientNamingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  clientName?: string;

  constructor(
    private readonly inner: StdioServerTransport,
    private readonly onClosed: () => void,
  ) {}

  start(): Promise<void> {
    this.inner.onmessage = (message: JSONRPCMessage) => {
      this.peek(message);
      this.onmessage?.(message);
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => {
      this.onclose?.();
      this.onClosed();
    };
    return this.inner.start();
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private peek(message: JSONRPCMessage): void {
    if (this.clientName || !('method' in message)) return;
    const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    const info = meta?.[CLIENT_INFO_KEY] as { name?: unknown } | undefined;
    if (typeof info?.name === 'string' && info.name.trim()) this.clientName = info.name.slice(0, 200);
  }
}

export async function serveMooringStdio(opts: StdioServeOptions): Promise<StdioServeHandle> {
  const scope = opts.scope ?? FULL_SCOPE;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const connections = new Set<MooringServerConnection>();
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await handle.close().catch(() => undefined);
      await Promise.all([...connections].map((c) => c.close()));
      resolveClosed();
    })());
  const wire = new ClientNamingTransport(
    new StdioServerTransport(opts.stdin, opts.stdout),
    () => void close(),
  );
  // One server per connection, plus a discarded one when a 2025 client opens after a probe: each follows
  // the core's catalog (through one shared listener) until its McpServer closes.
  const events = opts.events ?? new ServedEvents(opts.core.tools);
  const reads = opts.reads ?? new ServedReads();
  const handle = serveStdio(
    () => {
      const ref: { conn?: MooringServerConnection } = {};
      const identity = (): ClientIdentity => ({
        name: ref.conn?.mcp.server.getClientVersion()?.name || wire.clientName || 'mcp-client (stdio)',
        scope,
      });
      const conn = (ref.conn = createMooringServer({ ...opts, events, reads }, identity));
      connections.add(conn);
      const previous = conn.mcp.server.onclose;
      conn.mcp.server.onclose = () => {
        previous?.();
        connections.delete(conn);
        void conn.close();
      };
      return conn.mcp;
    },
    { transport: wire, ...(opts.onError ? { onerror: opts.onError } : {}) },
  );
  return { closed, close };
}
