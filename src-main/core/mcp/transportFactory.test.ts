// A remote transport reaches its server only through its dial (serverDial.ts): every request it makes goes
// through the guard the session was given, with the server's headers on its own origin only; a transport
// that opens a connection without fetch asks `admit`, which checks with the same guard.
import type { FetchLike } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema, type RemoteServerConfig } from '@shared/config';
import { TRANSPORT_KINDS, isRemoteTransport } from '@shared/transports';
import { MooringError } from '../errors';
import { serverDial, type DialGuard } from './serverDial';
import { createTransport } from './transportFactory';

const blocked = () => new MooringError('ssrf_blocked', 'blocked by the test guard');

/** A guard that records what it was asked and refuses everything. */
function refusingGuard() {
  const seen: { url: string; headers: Headers }[] = [];
  const checked: string[] = [];
  const guard: DialGuard = {
    fetch: (async (url, init) => {
      seen.push({ url: String(url), headers: new Headers(init?.headers) });
      throw blocked();
    }) as FetchLike,
    check: async (url) => {
      checked.push(url.href);
      throw blocked();
    },
  };
  return { guard, seen, checked };
}

const hooks = { onStderr: () => undefined, onGarbage: () => undefined };

describe('remote transports are dialled through the guard', () => {
  it.each(TRANSPORT_KINDS.filter(isRemoteTransport))(
    '%s: the first request goes through the guard, with the server header on its origin',
    async (kind) => {
      const { guard, seen } = refusingGuard();
      const config = ServerConfigSchema.parse({
        name: 'remote',
        transport: kind,
        url: 'https://mcp.example.test/mcp',
        headers: { 'X-Api-Key': 'k-123' },
      });
      const transport = await createTransport(config, { ...hooks, guard });
      const first = async () => {
        await transport.start();
        await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      };
      await expect(first()).rejects.toThrow();
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]!.url).toBe('https://mcp.example.test/mcp');
      expect(seen[0]!.headers.get('X-Api-Key')).toBe('k-123');
      await transport.close().catch(() => undefined);
    },
  );
});

describe('serverDial', () => {
  const config = ServerConfigSchema.parse({
    name: 'remote',
    transport: 'http',
    url: 'https://mcp.example.test/mcp',
    headers: { Authorization: 'Bearer static' },
  }) as RemoteServerConfig;

  it('admit: the guard decides first, then the headers go to the server origin only', async () => {
    const passing: DialGuard = {
      fetch: (() => Promise.reject(blocked())) as FetchLike,
      check: async () => undefined,
    };
    const dial = serverDial(config, passing);
    expect(await dial.admit(new URL('wss://mcp.example.test/ws'))).toEqual({ headers: {} });
    expect(await dial.admit(new URL('https://mcp.example.test/other'))).toEqual({
      headers: { Authorization: 'Bearer static' },
    });
    expect(await dial.admit(new URL('https://auth.example.test/token'))).toEqual({ headers: {} });

    const { guard, checked } = refusingGuard();
    await expect(serverDial(config, guard).admit(new URL('https://169.254.169.254/'))).rejects.toMatchObject({
      code: 'ssrf_blocked',
    });
    expect(checked).toEqual(['https://169.254.169.254/']);
  });

  it('guardedFetch carries no server header; fetch adds it on the server origin only', async () => {
    const { guard, seen } = refusingGuard();
    const dial = serverDial(config, guard);
    await dial
      .guardedFetch('https://mcp.example.test/.well-known/oauth-protected-resource')
      .catch(() => undefined);
    await dial.fetch('https://auth.example.test/register').catch(() => undefined);
    await dial.fetch('https://mcp.example.test/mcp').catch(() => undefined);
    expect(seen.map((s) => s.headers.get('Authorization'))).toEqual([null, null, 'Bearer static']);
  });
});
