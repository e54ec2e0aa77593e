// A remote server's configured headers go to its own origin only (README, "Safety"): when it answers 401
// pointing at protected-resource metadata on another origin, OAuth discovery and client registration
// there must not carry the user's static Authorization header or API key — nor may a redirect from the
// server's origin to another one. Two real HTTP servers on 127.0.0.1 (two ports: two origins), the real
// core with its SSRF-guarded fetch.
import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { createGuardedFetch } from '../../src-main/core/safety/guardedFetch';
import { withServerHeaders } from '../../src-main/core/mcp/serverHeaders';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { tempDir } from '../helpers/servers';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
}

const STATIC_AUTH = 'Bearer static-secret-7f3a9c';
const API_KEY = 'api-key-5e1d2b';

interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

function listen(handler: (req: IncomingMessage) => Reply) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      const r = handler(req);
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.body === undefined ? '' : JSON.stringify(r.body));
    });
  });
  return { server, seen };
}

let mcp: ReturnType<typeof listen>;
let authz: ReturnType<typeof listen>;
let mcpBase = '';
let authBase = '';

beforeAll(async () => {
  // The MCP server: every MCP request is 401, pointing at metadata on the other origin; /prm-redirect
  // redirects there.
  mcp = listen((req): Reply => {
    const url = new URL(req.url ?? '/', mcpBase);
    if (url.pathname === '/prm-redirect')
      return { status: 302, headers: { location: `${authBase}/.well-known/oauth-protected-resource` } };
    return {
      status: 401,
      headers: {
        'www-authenticate': `Bearer resource_metadata="${authBase}/.well-known/oauth-protected-resource"`,
      },
      body: { error: 'unauthorized' },
    };
  });
  // The authorization server, on another origin: metadata and dynamic client registration.
  authz = listen((req): Reply => {
    const url = new URL(req.url ?? '/', authBase);
    if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
      return {
        status: 200,
        body: { resource: `${mcpBase}/mcp`, authorization_servers: [authBase] },
      };
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server'))
      return {
        status: 200,
        body: {
          issuer: authBase,
          authorization_endpoint: `${authBase}/authorize`,
          token_endpoint: `${authBase}/token`,
          registration_endpoint: `${authBase}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        },
      };
    if (url.pathname === '/register')
      return {
        status: 201,
        body: { client_id: 'registered-client', redirect_uris: ['http://127.0.0.1/cb'] },
      };
    return { status: 404, body: {} };
  });
  for (const s of [mcp.server, authz.server]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  mcpBase = `http://127.0.0.1:${(mcp.server.address() as AddressInfo).port}`;
  authBase = `http://127.0.0.1:${(authz.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of [mcp.server, authz.server]) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

const carriesUserHeaders = (s: Seen) =>
  s.headers.authorization === STATIC_AUTH || s.headers['x-api-key'] === API_KEY;

describe.each(['http', 'sse'] as const)('the headers of a %s server', (transport) => {
  it('stay on its origin when its 401 points at metadata on another origin', async () => {
    const home = tempDir('mooring-headers-');
    const core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    try {
      const { safeDefaults: _safeDefaults, ...saved } = await core.servers.add(
        {
          name: 'remote',
          transport,
          url: `${mcpBase}/mcp`,
          headers: { Authorization: STATIC_AUTH, 'X-Api-Key': API_KEY },
          secretHeaders: ['Authorization'],
          // Both origins are loopback: let the SSRF guard reach the second port.
          allowPrivateNetwork: true,
        },
        { start: false },
      );
      const mcpBefore = mcp.seen.length;
      const authBefore = authz.seen.length;
      const result = await core.servers.connections.test(saved);
      expect(result).toMatchObject({ ok: false, code: 'auth_required' });

      const toServer = mcp.seen.slice(mcpBefore);
      const toAuthServer = authz.seen.slice(authBefore);
      // The server itself gets them (keychain value and plain header alike)...
      expect(toServer.length).toBeGreaterThan(0);
      expect(toServer[0]!.headers.authorization).toBe(STATIC_AUTH);
      expect(toServer[0]!.headers['x-api-key']).toBe(API_KEY);
      // ...the authorization server was asked (discovery and registration happened) but never saw them.
      expect(toAuthServer.map((s) => s.path)).toEqual(
        expect.arrayContaining([expect.stringMatching(/oauth-protected-resource/), '/register']),
      );
      expect(toAuthServer.filter(carriesUserHeaders)).toEqual([]);
    } finally {
      await core.close();
    }
  });
});

describe('withServerHeaders', () => {
  const headers = { Authorization: STATIC_AUTH, 'X-Api-Key': API_KEY };

  it.each([
    ['the global fetch', () => ({ f: (url: string | URL, init?: RequestInit) => fetch(url, init) })],
    ['the SSRF-guarded fetch', () => ({ f: createGuardedFetch({ allowPrivateNetwork: true }) })],
  ])(
    'over %s: a request with the headers is never followed to another origin; other origins never get them',
    async (_l, make) => {
      const base = make();
      const f = withServerHeaders(base.f, { serverUrl: `${mcpBase}/mcp`, headers });
      const mcpBefore = mcp.seen.length;
      const authBefore = authz.seen.length;
      // Even asked to follow, the redirect to the other origin comes back unfollowed (the SDK follows
      // same-origin ones itself, one request at a time).
      const res = await f(`${mcpBase}/prm-redirect`, { redirect: 'follow' });
      expect(res.status).toBe(302);
      expect(mcp.seen.slice(mcpBefore).map((s) => [s.path, carriesUserHeaders(s)])).toEqual([
        ['/prm-redirect', true],
      ]);
      expect(authz.seen.length).toBe(authBefore);
      // A request straight to another origin never gets them; a header the caller set wins over the config's.
      await f(`${authBase}/.well-known/oauth-authorization-server`);
      expect(carriesUserHeaders(authz.seen.at(-1)!)).toBe(false);
      await f(`${mcpBase}/mcp`, { headers: { authorization: 'Bearer from-oauth' } });
      expect(mcp.seen.at(-1)!.headers).toMatchObject({
        authorization: 'Bearer from-oauth',
        'x-api-key': API_KEY,
      });
      await (base.f as { close?: () => Promise<void> }).close?.();
    },
  );
});
