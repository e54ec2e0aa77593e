// The one way out of a confined server's network (docs/confinement.md, "Network"): an HTTP proxy, one per
// running server, that Mooring runs outside the sandbox. On Linux it listens on a Unix socket bound into the
// sandbox (the sandbox has no network of its own; socat inside turns a loopback port into that socket); on
// macOS on a loopback port the sandbox profile lets it reach. It forwards CONNECT tunnels and plain HTTP
// requests to the hosts the server's rules allow and refuses everything else with 403, reporting each
// refusal. A name that resolves to this machine is refused unless a rule names loopback itself.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type LookupFunction, type Socket } from 'node:net';
import { isLoopbackHost, matchDomain, type DomainRule } from './domainRules';

export interface ProxyRefusal {
  host: string;
  port: number;
  /** `CONNECT` (a tunnel, usually TLS) or the HTTP method of a plain request. */
  method: string;
  reason: string;
}

export interface EgressProxyOptions {
  rules: readonly DomainRule[];
  onRefused: (refusal: ProxyRefusal) => void;
  /** Listen here: a Unix socket path (Linux) or, when absent, a loopback TCP port (macOS). */
  socketPath?: string;
}

export interface EgressProxy {
  /** The socket path or the port it listens on. */
  readonly address: string | number;
  close(): Promise<void>;
}

export async function startEgressProxy(opts: EgressProxyOptions): Promise<EgressProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });

  const judge = (host: string, port: number, method: string): DomainRule | undefined => {
    const rule = host && port > 0 && port < 65536 ? matchDomain(opts.rules, host, port) : undefined;
    if (!rule) opts.onRefused({ host, port, method, reason: 'not in its allowedDomains' });
    return rule;
  };

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const { host, port } = splitAuthority(req.url ?? '', 443);
    const rule = judge(host, port, 'CONNECT');
    if (!rule) return void client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    const upstream = connect({ host, port, lookup: guardedLookup(rule, host, port, opts) });
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const fail = () => {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      upstream.destroy();
    };
    upstream.once('error', fail);
    client.once('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
  });

  server.on('request', (req, res) => {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('a proxy request names a full http:// URL');
      return;
    }
    const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const rule = target.protocol === 'http:' ? judge(host, port, req.method ?? 'GET') : undefined;
    if (!rule) return void res.writeHead(403).end();
    const upstream = request(
      {
        host,
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: withoutProxyHeaders(req.headers),
        lookup: guardedLookup(rule, host, port, opts),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.once('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (opts.socketPath) server.listen(opts.socketPath, () => resolve());
    else server.listen(0, '127.0.0.1', () => resolve());
  });
  const addr = server.address();
  const address = typeof addr === 'string' ? addr : (addr?.port ?? 0);
  return {
    address,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `host:port` of a CONNECT line, IPv6 in brackets. */
export function splitAuthority(authority: string, defaultPort: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority) ?? /^([^:]*)(?::(\d+))?$/.exec(authority);
  if (!m) return { host: '', port: 0 };
  return { host: m[1]!.toLowerCase(), port: m[2] ? Number(m[2]) : defaultPort };
}

function withoutProxyHeaders(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const { 'proxy-connection': _c, 'proxy-authorization': _a, ...rest } = headers;
  return rest;
}

/**
 * A DNS lookup that refuses an answer on this machine for a rule that does not name loopback: an allowed
 * name must not become a way into local services.
 */
function guardedLookup(
  rule: DomainRule,
  host: string,
  port: number,
  opts: EgressProxyOptions,
): LookupFunction {
  const loopbackAllowed = isLoopbackHost(rule.host);
  return ((hostname: string, options: { all?: boolean }, callback: (...a: unknown[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const usable = loopbackAllowed ? addresses : addresses.filter((a) => !isLoopbackHost(a.address));
      if (!usable.length) {
        opts.onRefused({ host, port, method: 'resolve', reason: 'it resolves to this machine' });
        return callback(Object.assign(new Error(`${hostname} resolves to this machine`), { code: 'EACCES' }));
      }
      if (options.all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  }) as LookupFunction;
}
