// Browser mode's sandbox origin for MCP App views (docs/mcp-apps.md, "MCP Apps"): a second server on
// 127.0.0.1, addressed as http://localhost:<port>, so the views' pages share neither origin nor site (and so
// no cookies) with the app on http://127.0.0.1:<port>. It serves one page per opened view
// (apps/sandboxPage.ts) and nothing else; no token, since a page holds nothing secret and only the app's
// origin may frame it. Host is checked against DNS rebinding.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppViews } from '../apps/appViews';
import { sandboxHeaders, sandboxPage } from '../apps/sandboxPage';

export interface SandboxServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

const VIEW_PATH = /^\/view\/([0-9a-f-]{36})$/;

export async function startSandboxServer(apps: AppViews): Promise<SandboxServer> {
  let port = 0;
  const server = createServer((req, res) => {
    const hostOk = req.headers.host === `localhost:${port}` || req.headers.host === `127.0.0.1:${port}`;
    const m = VIEW_PATH.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    const reg = m && hostOk && req.method === 'GET' ? apps.registered(m[1]!) : undefined;
    if (!reg) {
      res.writeHead(hostOk ? 404 : 403, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(hostOk ? 'No such view.\n' : 'Forbidden.\n');
      return;
    }
    res.writeHead(200, sandboxHeaders(reg));
    res.end(sandboxPage(reg));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://localhost:${port}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
