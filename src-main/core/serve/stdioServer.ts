// `mooring serve --stdio`: one external client on this process's stdin/stdout. The client's
// identity is the name it gave in `initialize` (MCP spec, "Lifecycle": clientInfo), its scope comes from
// the command line. stdout carries only JSON-RPC; everything else goes to stderr.
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { FULL_SCOPE, type ClientScope } from './clientScope';
import { createMooringServer, type MooringServerDeps } from './mooringServer';

export interface StdioServeOptions extends MooringServerDeps {
  scope?: ClientScope;
  stdin?: Readable;
  stdout?: Writable;
}

export interface StdioServeHandle {
  /** Resolves when the client closes its end (stdin ends) or `close()` is called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export async function serveMooringStdio(opts: StdioServeOptions): Promise<StdioServeHandle> {
  const scope = opts.scope ?? FULL_SCOPE;
  // The capabilities read the scope while registering, before there is a server to ask for the name.
  const ref: { server?: ReturnType<typeof createMooringServer> } = {};
  const identity = () => ({
    name: ref.server?.mcp.server.getClientVersion()?.name || 'mcp-client (stdio)',
    scope,
  });
  const server = (ref.server = createMooringServer(opts, identity));
  const transport = new StdioServerTransport(opts.stdin, opts.stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    await server.close();
    resolveClosed();
  };
  await server.mcp.connect(transport);
  const previous = transport.onclose;
  transport.onclose = () => {
    previous?.();
    void close();
  };
  return { closed, close };
}
