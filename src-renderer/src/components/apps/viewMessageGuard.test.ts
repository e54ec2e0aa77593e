// The host's checks on what an MCP App view sends (viewMessageGuard.ts): the extension's schema per
// method, JSON-RPC errors for unknown methods and bad params, a size cap and a rate limit.
import { describe, expect, it } from 'vitest';
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  TOO_MANY,
  ViewMessageGuard,
} from './viewMessageGuard';

const req = (id: number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });

describe('ViewMessageGuard', () => {
  it('passes the extension’s requests and notifications with valid params', () => {
    const g = new ViewMessageGuard();
    for (const m of [
      req(1, 'ui/initialize', {
        appInfo: { name: 'v', version: '1' },
        appCapabilities: {},
        protocolVersion: '2026-01-26',
      }),
      req(2, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'hi' }] }),
      req(3, 'ui/open-link', { url: 'https://example.com' }),
      req(4, 'tools/call', { name: 'increment', arguments: { count: 1 } }),
      req(5, 'resources/read', { uri: 'ui://x/y' }),
      req(6, 'ping', {}),
      { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: 200 } },
      { jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} },
      { jsonrpc: '2.0', id: 9, result: {} },
    ])
      expect(g.check(m), JSON.stringify(m)).toMatchObject({ ok: true });
  });

  it('answers an unknown method with JSON-RPC method-not-found, and drops an unknown notification', () => {
    const g = new ViewMessageGuard();
    expect(g.check(req(7, 'ui/steal-secrets', {}))).toEqual({
      ok: false,
      reason: 'unknown-method',
      reply: {
        jsonrpc: '2.0',
        id: 7,
        error: { code: METHOD_NOT_FOUND, message: 'Method not found: ui/steal-secrets' },
      },
    });
    // A host-only method sent by the view is unknown too.
    expect(g.check(req(8, 'ui/notifications/tool-result', {}))).toMatchObject({
      reply: { error: { code: METHOD_NOT_FOUND } },
    });
    const n = g.check({ jsonrpc: '2.0', method: 'notifications/whatever', params: {} });
    expect(n).toEqual({ ok: false, reason: 'unknown-method' });
  });

  it('answers bad params with invalid-params naming the field', () => {
    const g = new ViewMessageGuard();
    const v = g.check(req(3, 'ui/message', { role: 'user', content: 'not a list' }));
    expect(v).toMatchObject({
      ok: false,
      reason: 'invalid',
      reply: { id: 3, error: { code: INVALID_PARAMS } },
    });
    expect(g.check(req(4, 'tools/call', { arguments: {} }))).toMatchObject({
      reply: { error: { code: INVALID_PARAMS } },
    });
  });

  it('refuses what is not JSON-RPC', () => {
    const g = new ViewMessageGuard();
    expect(g.check('hello')).toEqual({ ok: false, reason: 'shape' });
    expect(g.check({ id: 1, method: 'ping' })).toMatchObject({
      ok: false,
      reply: { error: { code: INVALID_REQUEST } },
    });
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', id: 2, method: 'ping' };
    cyclic.params = cyclic;
    expect(g.check(cyclic)).toMatchObject({ ok: false, reason: 'unserialisable' });
  });

  it('caps the size of a message', () => {
    const g = new ViewMessageGuard({ maxChars: 1000 });
    const v = g.check(
      req(5, 'ui/message', { role: 'user', content: [{ type: 'text', text: 'x'.repeat(2000) }] }),
    );
    expect(v).toMatchObject({
      ok: false,
      reason: 'size',
      reply: { id: 5, error: { code: INVALID_REQUEST } },
    });
  });

  it('limits the rate, refills with time, and stops answering a flood', () => {
    let now = 0;
    const g = new ViewMessageGuard({ perSecond: 10, burst: 5, now: () => now });
    const results = Array.from({ length: 5 }, (_, i) => g.check(req(i, 'ping', {})));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(g.check(req(6, 'ping', {}))).toMatchObject({
      ok: false,
      reason: 'rate',
      reply: { error: { code: TOO_MANY } },
    });
    now += 500; // five more tokens
    expect(Array.from({ length: 5 }, (_, i) => g.check(req(10 + i, 'ping', {})).ok)).toEqual(
      Array(5).fill(true),
    );
    // A flood in one instant: answered while replies are cheap (25 here), then dropped silently.
    const flood = Array.from({ length: 200 }, (_, i) => g.check(req(100 + i, 'ping', {})));
    const answered = flood.filter((r) => !r.ok && r.reply).length;
    const silent = flood.filter((r) => !r.ok && !r.reply).length;
    expect(answered).toBeGreaterThan(0);
    expect(silent).toBeGreaterThan(0);
    expect(answered + silent).toBe(200);
    expect(g.refused.get('rate')).toBe(201); // the one before the refill, and the flood
  });
});
