// Mooring as an MCP server, started from the app (Settings > Share): Streamable HTTP on 127.0.0.1 with a
// bearer token shown once, for another client (Claude Desktop, Cursor, VS Code, a script) to connect
// to. Approvals its clients need appear in the app's dialog (the same core, the same broker). One per
// core; the core stops it when it closes.
import { FULL_SCOPE } from './clientScope';
import type { McpHttpServer } from './httpServer';
import { clientEntry, type ClientEntry, type SelfLaunch } from './launchCommand';
import { loadHttpServer } from './lazy';
import type { ServedCore } from './servedCore';
import { generateToken } from './serverTokens';

export type SharingStatus =
  | {
      running: true;
      url: string;
      label: string;
      readOnly: boolean;
      clients: { id: string; client: string }[];
    }
  | { running: false };

export class Sharing {
  private running?: { server: McpHttpServer; label: string; readOnly: boolean };

  constructor(
    private readonly core: ServedCore,
    private readonly launch: { selfLaunch?: SelfLaunch; env?: NodeJS.ProcessEnv } = {},
  ) {}

  /** The stdio entry a client that starts its servers itself (Claude Desktop, Cursor) needs for this install. */
  clientEntry(): ClientEntry {
    return clientEntry(this.launch);
  }

  status(): SharingStatus {
    const r = this.running;
    return r
      ? {
          running: true,
          url: r.server.url,
          label: r.label,
          readOnly: r.readOnly,
          clients: r.server.sessions(),
        }
      : { running: false };
  }

  /** (Re)starts the server with a fresh token; the token is returned once, here, and never stored. */
  async start(opts: { port: number; label: string; readOnly: boolean }): Promise<{
    url: string;
    token: string;
    label: string;
  }> {
    await this.stop();
    const token = generateToken();
    const { startMcpHttpServer } = await loadHttpServer();
    const server = await startMcpHttpServer({
      core: this.core,
      port: opts.port,
      tokens: [{ label: opts.label, token, scope: opts.readOnly ? { readOnly: true } : FULL_SCOPE }],
    });
    this.running = { server, label: opts.label, readOnly: opts.readOnly };
    return { url: server.url, token, label: opts.label };
  }

  async stop(): Promise<void> {
    const r = this.running;
    this.running = undefined;
    await r?.server.close();
  }
}
