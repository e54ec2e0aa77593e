// The guarded fetch against a real local HTTP server on 127.0.0.1: DNS pinning, rebinding via the resolver
// hook, redirect chains re-checked hop by hop (README, "Safety"). Each row has an expected allow/block verdict and
// the server's hit log proves a blocked request never reached it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringError } from '../errors';
import { createGuardedFetch } from './guardedFetch';
import { checkUrl, type ResolverHook } from './ssrfGuard';

interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let port: number;
const hits: Hit[] = [];
const base = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
      return;
    }
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${req.method} ${url.pathname}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
);

const answer = (...addresses: string[]): LookupAddress[] =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

const fixedResolver =
  (table: Record<string, string[]>): ResolverHook =>
  async (host) => {
    const a = table[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer(...a);
  };

async function outcome(
  p: Promise<Response>,
): Promise<{ status?: number; body?: string; error?: MooringError }> {
  try {
    const res = await p;
    return { status: res.status, body: await res.text() };
  } catch (e) {
    if (e instanceof MooringError) return { error: e };
    throw e;
  }
}

describe('guarded fetch: pinning and rebinding', () => {
  it('connects to the address the hook returned (pinning): a .test name reaches 127.0.0.1 only when allowed', async () => {
    const lookup = fixedResolver({ 'pinned.test': ['127.0.0.1'] });
    const allowed = createGuardedFetch({ allowPrivateNetwork: true, lookup });
    const r = await outcome(allowed(`http://pinned.test:${port}/pinned`));
    expect(r).toMatchObject({ status: 200, body: 'ok GET /pinned' });
    await allowed.close();

    const before = hits.length;
    const blocked = createGuardedFetch({ lookup });
    const b = await outcome(blocked(`http://pinned.test:${port}/pinned`));
    expect(b.error?.code).toBe('ssrf_blocked');
    expect(hits.length).toBe(before);
    await blocked.close();
  });

  it('DNS rebinding: a pre-check sees a public answer, the connection sees loopback and is blocked', async () => {
    const answers = [answer('93.184.216.34'), answer('127.0.0.1')];
    let calls = 0;
    const rebinding: ResolverHook = async () => answers[Math.min(calls++, 1)]!;
    // First resolution (e.g. when the server was added) looks public…
    await expect(checkUrl(`http://rebind.test:${port}/`, { lookup: rebinding })).resolves.toMatchObject({
      host: 'rebind.test',
    });
    // …the connection resolves again, gets 127.0.0.1, and the guarded lookup refuses it.
    const before = hits.length;
    const f = createGuardedFetch({ lookup: rebinding });
    const r = await outcome(f(`http://rebind.test:${port}/secret`));
    expect(r.error?.code).toBe('ssrf_blocked');
    expect(r.error?.message).toMatch(/rebind\.test" resolves to 127\.0\.0\.1/);
    expect(hits.length).toBe(before);
    expect(calls).toBe(2);
    await f.close();
  });

  it('a multi-answer rebinding (public and private in one answer) is blocked', async () => {
    const f = createGuardedFetch({ lookup: async () => answer('93.184.216.34', '127.0.0.1') });
    const before = hits.length;
    expect((await outcome(f(`http://both.test:${port}/`))).error?.code).toBe('ssrf_blocked');
    expect(hits.length).toBe(before);
    await f.close();
  });
});

type FetchRow = [
  name: string,
  url: () => string,
  opts: { typed?: boolean; allowPrivateNetwork?: boolean },
  expected: 'allow' | 'block',
  reachedPaths: string[],
];

const rows: FetchRow[] = [
  ['typed loopback literal is allowed', () => `${base()}/plain`, { typed: true }, 'allow', ['/plain']],
  ['loopback literal from a server is blocked', () => `${base()}/plain`, {}, 'block', []],
  [
    'same-origin redirect is followed',
    () => `${base()}/redirect?to=/landed`,
    { typed: true },
    'allow',
    ['/redirect', '/landed'],
  ],
  [
    'redirect to metadata is blocked at the hop',
    () => `${base()}/redirect?to=http://169.254.169.254/latest/meta-data/`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect to decimal loopback on another port is blocked',
    () => `${base()}/redirect?to=http://2130706433:6379/`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect to the typed host in decimal form, same port, is allowed',
    () => `${base()}/redirect?to=http://2130706433:${port}/same`,
    { typed: true },
    'allow',
    ['/redirect', '/same'],
  ],
  [
    'redirect to localhost on another port is blocked',
    () => `${base()}/redirect?to=http://localhost:6379/`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect to a hostname resolving to 10/8 is blocked',
    () => `${base()}/redirect?to=http://internal.test/`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect to IPv4-mapped loopback is blocked',
    () => `${base()}/redirect?to=http://[::ffff:127.0.0.1]:${port}/x`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect to file: is blocked',
    () => `${base()}/redirect?to=file:///etc/passwd`,
    { typed: true },
    'block',
    ['/redirect'],
  ],
  [
    'two-hop chain ending in private is blocked',
    () => `${base()}/redirect?to=${encodeURIComponent(`/redirect?to=http://192.168.0.1/`)}`,
    { typed: true },
    'block',
    ['/redirect', '/redirect'],
  ],
  [
    'redirect through a hostname to loopback is allowed with allowPrivateNetwork',
    () => `${base()}/redirect?to=http://lan.test:${port}/lan`,
    { typed: true, allowPrivateNetwork: true },
    'allow',
    ['/redirect', '/lan'],
  ],
  [
    'redirect to metadata is blocked even with allowPrivateNetwork',
    () => `${base()}/redirect?to=http://169.254.169.254/latest/meta-data/`,
    { typed: true, allowPrivateNetwork: true },
    'block',
    ['/redirect'],
  ],
  [
    'redirect through a hostname to metadata is blocked even with allowPrivateNetwork',
    () => `${base()}/redirect?to=http://imds.test/latest/meta-data/`,
    { typed: true, allowPrivateNetwork: true },
    'block',
    ['/redirect'],
  ],
  [
    'a redirect loop stops with an error',
    () => `${base()}/loop`,
    { typed: true },
    'block',
    ['/loop', '/loop', '/loop', '/loop', '/loop', '/loop'],
  ],
];

describe('guarded fetch: redirect chains through a local server', () => {
  it.each(rows)('%s', async (_name, url, opts, expected, reached) => {
    const lookup = fixedResolver({
      'internal.test': ['10.1.2.3'],
      'lan.test': ['127.0.0.1'],
      'imds.test': ['169.254.169.254'],
    });
    const f = createGuardedFetch({
      lookup,
      allowPrivateNetwork: opts.allowPrivateNetwork,
      typedUrl: opts.typed ? base() : undefined,
    });
    const start = hits.length;
    const r = await outcome(f(url()));
    await f.close();
    if (expected === 'allow') expect(r.status).toBe(200);
    else expect(r.error).toBeInstanceOf(MooringError);
    // Metadata must be refused by the guard, never attempted (a connect error would mean it was tried).
    if (/metadata/.test(_name)) expect(r.error).toMatchObject({ code: 'ssrf_blocked' });
    expect(hits.slice(start).map((h) => h.path.split('?')[0])).toEqual(reached);
  });

  it('303 turns a POST into a GET; a cross-origin hop drops credentials', async () => {
    const f = createGuardedFetch({
      allowPrivateNetwork: true,
      lookup: fixedResolver({ 'other.test': ['127.0.0.1'] }),
    });
    const start = hits.length;
    const res = await f(
      `${base()}/redirect?status=303&to=${encodeURIComponent(`http://other.test:${port}/after`)}`,
      {
        method: 'POST',
        headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' },
        body: '{"a":1}',
      },
    );
    expect(await res.text()).toBe('ok GET /after');
    const [first, second] = hits.slice(start);
    expect(first).toMatchObject({ method: 'POST' });
    expect(first!.headers.authorization).toBe('Bearer s3cret');
    expect(second).toMatchObject({ method: 'GET', path: '/after' });
    expect(second!.headers.authorization).toBeUndefined();
    await f.close();
  });

  it('a 307 keeps method and body on the same origin', async () => {
    const f = createGuardedFetch({ typedUrl: base() });
    const res = await f(`${base()}/redirect?status=307&to=/kept`, { method: 'POST', body: 'x' });
    expect(await res.text()).toBe('ok POST /kept');
    await f.close();
  });

  it('typed localhost reaches the server with a visible note; another port of it does not', async () => {
    const notes: string[] = [];
    const lookup = fixedResolver({ localhost: ['127.0.0.1'] });
    const f = createGuardedFetch({
      lookup,
      typedUrl: `http://localhost:${port}/mcp`,
      onNote: (n) => notes.push(n),
    });
    expect(await (await f(`http://localhost:${port}/mcp`)).text()).toBe('ok GET /mcp');
    expect(notes[0]).toMatch(/loopback address 127\.0\.0\.1, which you typed/);
    await expect(f(`http://localhost:${port + 1}/`)).rejects.toMatchObject({ code: 'ssrf_blocked' });
    await f.close();
  });

  it("redirect: 'manual' returns the 3xx untouched", async () => {
    const f = createGuardedFetch({ typedUrl: base() });
    const res = await f(`${base()}/redirect?to=http://169.254.169.254/`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('http://169.254.169.254/');
    await f.close();
  });
});
