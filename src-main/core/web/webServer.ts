// Browser mode: the same core and renderer in any browser, on 127.0.0.1 only. The router is served over
// HTTP, its subscription over server-sent events (tRPC's standalone adapter); the built renderer is served
// as static files. Every request passes the WebGate first, then a router request's body is checked by its
// headers before it is read (requestLimits.ts: JSON only, a known length, at most MAX_BODY_BYTES).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { MooringError } from '../errors';
import type { MooringCore } from '../mooringCore';
import { appRouter, createApiContext } from '../api/router';
import { securityHeadersFraming } from './contentSecurity';
import { startSandboxServer } from './sandboxServer';
import { checkRequestBody, MAX_BODY_BYTES, refuseBody } from './requestLimits';
import { serveStatic } from './staticFiles';
import { WebGate } from './webAuth';

export const TRPC_PATH = '/trpc';
const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

export interface WebServerOptions {
  core: MooringCore;
  /** 0 or absent: a free port. */
  port?: number;
  /** Only 127.0.0.1 (or "localhost", which binds 127.0.0.1) is accepted. */
  host?: string;
  /** The built renderer; default out/renderer next to the package. */
  staticDir?: string;
  /** The one-time token; default a fresh random one. */
  token?: string;
}

export interface WebServer {
  /** The one URL to print: it carries the one-time token. */
  url: string;
  port: number;
  /** What `mooring web --link` presents for a new link (kept in run/web-<pid>.json, webInstance.ts). */
  linkKey: string;
  server: Server;
  /** Stops accepting, ends open streams. Does not close the core. */
  close(): Promise<void>;
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    throw new MooringError(
      'usage',
      `Browser mode listens on 127.0.0.1 only, not on "${host}".`,
      'Leave the host out; to reach Mooring from another machine, use an SSH tunnel to 127.0.0.1.',
    );
  const staticDir = resolve(opts.staticDir ?? resolve(process.cwd(), 'out/renderer'));
  // Read per sign-in: a changed webSessionHours applies to the next sign-in.
  const gate = new WebGate({
    token: opts.token,
    sessionMs: () => opts.core.settings.current().webSessionHours * 3_600_000,
  });
  const ctx = createApiContext(opts.core);
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: `${TRPC_PATH}/`,
    // A second fence behind checkRequestBody: the adapter stops reading past this many bytes.
    maxBodySize: MAX_BODY_BYTES,
    createContext: () => ({ core: ctx.core, history: ctx.history }),
  });

  // MCP App views are framed from a second origin (sandboxServer.ts); the app's CSP allows that one.
  const sandbox = await startSandboxServer(opts.core.apps);
  const headers = securityHeadersFraming(sandbox.origin);
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const verdict = gate.check(req);
    if (verdict.kind === 'deny') {
      // A refused request's body is never read: the connection closes after the answer.
      const hasBody =
        req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
      res.writeHead(verdict.status, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...(hasBody ? { connection: 'close' } : {}),
      });
      res.end(`${verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}: ${verdict.reason}.\n`, () => {
        if (hasBody) req.socket.destroy();
      });
      return;
    }
    if (verdict.kind === 'newLink') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(`${JSON.stringify({ url: verdict.url })}\n`);
      return;
    }
    if (verdict.kind === 'login') {
      res.writeHead(303, {
        location: verdict.location,
        'set-cookie': verdict.setCookie,
        'cache-control': 'no-store',
      });
      res.end();
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (pathname === TRPC_PATH || pathname.startsWith(`${TRPC_PATH}/`)) {
      res.setHeader('cache-control', 'no-store');
      const body = checkRequestBody(req);
      if (!body.ok) return refuseBody(req, res, body);
      trpc(req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    serveStatic(staticDir, pathname, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };

  const server = createServer(handle);
  await new Promise<void>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      void sandbox.close();
      fail(
        err.code === 'EADDRINUSE'
          ? new MooringError(
              'usage',
              `Port ${opts.port} is in use.`,
              'Choose another with --port, or leave it out for a free one.',
            )
          : err,
      );
    });
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  gate.setPort(port);
  opts.core.apps.setSandbox(
    { originOf: () => sandbox.origin, pageUrl: (viewId) => `${sandbox.origin}/view/${viewId}` },
    `http://127.0.0.1:${port}`,
  );
  const url = gate.loginUrl();

  return {
    url,
    port,
    linkKey: gate.linkKey,
    server,
    close: () =>
      new Promise<void>((done) => {
        ctx.dispose();
        void sandbox.close();
        server.close(() => done());
        // SSE streams stay open until told: end them so close() returns.
        server.closeAllConnections();
      }),
  };
}
