// `mooring serve --http PORT`: Mooring's MCP server over Streamable HTTP (MCP spec 2025-11-25,
// "Transports"), one session per client; a 2026-07-28 client's requests are answered one by one, without a
// session (modernHttp.ts; docs/decisions/006-protocol-eras.md). In front of both, in this order:
//   1. Host and Origin checks (spec "Security Warning": validate Origin; DNS rebinding) → 403;
//   2. the path (/mcp) → 404;
//   3. a bearer token from the configured ring → 401; the token's label is the client's identity and its
//      scope limits what the session may list and call; a session stays bound to the token that opened it;
//   4. a new session only within the limits (httpSessions.ts) → 503 with Retry-After past them; idle
//      sessions are closed.
// Every session hears the core through one shared listener (servedEvents.ts). It listens on 127.0.0.1
// unless the caller explicitly allows a remote bind.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import {
  isInitializeRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { MooringError } from '../errors';
import type { ClientIdentity } from './clientScope';
import { DEFAULT_SESSION_LIMITS, HttpSessionTable, type SessionLimits } from './httpSessions';
import { createModernHttpEntry } from './modernHttp';
import { readBody, sendWebResponse, toWebRequest } from './nodeWebBridge';
import { createMooringServer, type MooringServerDeps } from './mooringServer';
import { ServedEvents } from './servedEvents';
import { ServedReads } from './servedReads';
import { TokenRing, type ServerToken } from './serverTokens';

export const MCP_PATH = '/mcp';
const MAX_BODY = 4 * 1024 * 1024;
/**
 * A connection that has not sent a whole request head within this long is closed. Node closes a slow head
 * only once its first byte came (`headersTimeout`); a socket that sends nothing stays open, and a thousand
 * of them take every file descriptor the process has, so the token holder's request cannot be accepted.
 */
export const HEADERS_DEADLINE_MS = 5_000;

export interface McpHttpServerOptions extends MooringServerDeps {
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  tokens: ServerToken[];
  /** Required for any address that is not loopback: the server then answers the network. */
  allowRemote?: boolean;
  /** Extra Host/Origin hostnames to accept (e.g. the machine's name when bound remotely). */
  allowedHosts?: string[];
  /** Open sessions per token and in all, and the idle time after which a session closes. */
  sessionLimits?: Partial<SessionLimits>;
  onError?: (err: Error) => void;
}

export interface McpHttpServer {
  url: string;
  port: number;
  /** Open sessions, by id (for tests and the UI). */
  sessions(): { id: string; client: string }[];
  close(): Promise<void>;
}

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const addr = ipaddr.process(bare);
  return addr.range() === 'loopback';
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
}

function deny(
  res: ServerResponse,
  status: number,
  message: string,
  opts: { headers?: Record<string, string>; id?: unknown; data?: Record<string, unknown> } = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...opts.headers });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message, ...(opts.data ? { data: opts.data } : {}) },
      id: typeof opts.id === 'string' || typeof opts.id === 'number' ? opts.id : null,
    }),
  );
}

export async function startMcpHttpServer(opts: McpHttpServerOptions): Promise<McpHttpServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && !opts.allowRemote)
    throw new MooringError(
      'usage',
      `Refusing to serve MCP on ${host}: it is not a loopback address, so other machines could reach Mooring's tools.`,
      'Bind to 127.0.0.1 (the default), or pass --allow-remote if you really mean to expose it (keep the token secret).',
    );
  if (!opts.tokens.length)
    throw new MooringError(
      'usage',
      'The HTTP server needs at least one token',
      'Leave out --token-file to generate one.',
    );
  const ring = new TokenRing(opts.tokens);
  const allowedHostnames = [
    ...localhostAllowedHostnames(),
    ...(isLoopbackHost(host) || host === '0.0.0.0' || host === '::'
      ? []
      : [host.includes(':') ? `[${host}]` : host]),
    ...(opts.allowedHosts ?? []),
  ];
  const table = new HttpSessionTable({ ...DEFAULT_SESSION_LIMITS, ...opts.sessionLimits });
  const transports = new Map<string, Session>();
  const events = opts.events ?? new ServedEvents(opts.core.tools);
  const reads = opts.reads ?? new ServedReads();
  const modern = createModernHttpEntry({
    ...opts,
    events,
    reads,
    maxBodyBytes: MAX_BODY,
    ...(opts.onError ? { onError: opts.onError } : {}),
  });

  /** Opens a session for `who`, or answers 503 when its token or the server has too many. */
  const openSession = async (res: ServerResponse, who: ClientIdentity, requestId: unknown) => {
    const admission = await table.admit(who);
    if (!admission.ok) {
      deny(res, 503, admission.message, {
        headers: { 'retry-after': String(admission.retryAfterSeconds) },
        id: requestId,
        data: { retryAfterSeconds: admission.retryAfterSeconds, ...table.limits },
      });
      return undefined;
    }
    const tracked = admission.session;
    try {
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => tracked.id,
        onsessioninitialized: () => void (tracked.initialized = true),
        onsessionclosed: (id) => void table.drop(id),
      });
      const conn = createMooringServer({ ...opts, events, reads }, () => who);
      tracked.close = async () => {
        transports.delete(tracked.id);
        await conn.close();
      };
      transport.onerror = (err) => opts.onError?.(err);
      transports.set(tracked.id, { transport });
      await conn.mcp.connect(transport);
      return tracked;
    } catch (err) {
      await table.drop(tracked.id);
      throw err;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const hostCheck = validateHostHeader(req.headers.host, allowedHostnames);
    if (!hostCheck.ok) return deny(res, 403, `Forbidden: ${hostCheck.message}`);
    const originCheck = validateOriginHeader(req.headers.origin, allowedHostnames);
    if (!originCheck.ok) return deny(res, 403, `Forbidden: ${originCheck.message}`);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (url.pathname !== MCP_PATH) return deny(res, 404, `Not found: Mooring serves MCP at ${MCP_PATH}`);
    const who = ring.identify(req.headers.authorization);
    if (!who)
      return deny(
        res,
        401,
        'Unauthorized: send the token printed by `mooring serve` as "Authorization: Bearer <token>"',
        { headers: { 'www-authenticate': 'Bearer realm="mooring"' } },
      );

    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let parsedBody: unknown;
    if (req.method === 'POST') {
      try {
        parsedBody = JSON.parse(await readBody(req, MAX_BODY));
      } catch (e) {
        return deny(res, 400, `Bad request: the body is not JSON (${(e as Error).message})`);
      }
    }
    const sessionId = req.headers['mcp-session-id'];
    // A 2026-07-28 request carries its revision in `_meta` and has no session: the stateless entry answers it.
    if (sessionId === undefined && req.method === 'POST') {
      const request = toWebRequest(req, url.href, abort.signal);
      if (await modern.isModern(request, parsedBody))
        return sendWebResponse(res, await modern.fetch(request, who, parsedBody));
    }
    let tracked = typeof sessionId === 'string' ? table.get(sessionId) : undefined;
    if (tracked && tracked.who !== who)
      return deny(res, 403, 'Forbidden: this session belongs to another token');
    let opened = false;
    if (!tracked && sessionId === undefined && req.method === 'POST' && isInitializeRequest(parsedBody)) {
      tracked = await openSession(res, who, (parsedBody as { id?: unknown }).id);
      if (!tracked) return;
      opened = true;
    }
    const session = tracked && transports.get(tracked.id);
    if (!tracked || !session)
      return deny(
        res,
        sessionId === undefined ? 400 : 404,
        sessionId === undefined
          ? 'Bad request: no Mcp-Session-Id; start with an initialize request'
          : 'Session not found (closed, or idle too long): initialize again',
      );
    // Open while this exchange runs (an SSE stream included): a session in use never counts as idle.
    const leave = table.enter(tracked);
    res.once('close', leave);
    try {
      const response = await session.transport.handleRequest(
        toWebRequest(req, url.href, abort.signal),
        parsedBody === undefined ? {} : { parsedBody },
      );
      await sendWebResponse(res, response);
    } finally {
      // A handshake that did not succeed leaves nothing behind.
      if (opened && !tracked.initialized) await table.drop(tracked.id);
    }
  };

  const server = createServer({ headersTimeout: HEADERS_DEADLINE_MS }, (req, res) => {
    const deadline = deadlines.get(req.socket);
    if (deadline) clearTimeout(deadline);
    handle(req, res).catch((err: unknown) => {
      opts.onError?.(err as Error);
      if (!res.headersSent) deny(res, 500, 'Internal error');
      else res.end();
    });
  });
  // Until its first request head is complete, a connection is anyone's (no token read yet): it gets a deadline.
  const deadlines = new WeakMap<Socket, NodeJS.Timeout>();
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), HEADERS_DEADLINE_MS);
    timer.unref();
    deadlines.set(socket, timer);
    socket.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'EADDRINUSE'
          ? new MooringError(
              'usage',
              `Port ${opts.port} is already in use`,
              'Pick another port, or 0 for a free one.',
            )
          : e,
      ),
    );
    server.listen(opts.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_PATH}`,
    port,
    sessions: () => table.list().map((s) => ({ id: s.id, client: s.who.name })),
    async close() {
      await table.closeAll();
      await modern.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
