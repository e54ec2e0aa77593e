// The gate's sign-in lasts as long as the setting says, on the server as well as in the cookie.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { WebGate } from './webAuth';

const req = (path: string, cookie?: string) =>
  ({ url: path, headers: { host: '127.0.0.1:4000', ...(cookie ? { cookie } : {}) } }) as IncomingMessage;

describe('WebGate sign-in', () => {
  it('ends after sessionMs; a new link signs in again', () => {
    let now = 1_000_000;
    const gate = new WebGate({ sessionMs: () => 2 * 3_600_000, now: () => now });
    gate.setPort(4000);
    const login = gate.check(req(`/${new URL(gate.loginUrl()).search}`));
    if (login.kind !== 'login') throw new Error(`expected a login, got ${login.kind}`);
    expect(login.setCookie).toMatch(/Max-Age=7200\b/);
    const cookie = login.setCookie.split(';')[0]!;
    expect(gate.check(req('/', cookie)).kind).toBe('allow');
    now += 2 * 3_600_000 - 1;
    expect(gate.check(req('/', cookie)).kind).toBe('allow');
    now += 1;
    const ended = gate.check(req('/', cookie));
    expect(ended).toMatchObject({
      kind: 'deny',
      status: 401,
      reason: expect.stringMatching(/sign-in ended/),
    });
    const again = gate.check(req(`/${new URL(gate.newLink()).search}`));
    expect(again.kind).toBe('login');
  });

  it('keeps at most 8 unused links: the oldest stops working', () => {
    const gate = new WebGate({ sessionMs: () => 60_000 });
    gate.setPort(4000);
    const links = Array.from({ length: 9 }, () => gate.newLink());
    expect(gate.check(req(`/${new URL(gate.loginUrl()).search}`)).kind).toBe('deny');
    expect(gate.check(req(`/${new URL(links[0]!).search}`)).kind).toBe('deny');
    expect(gate.check(req(`/${new URL(links[1]!).search}`)).kind).toBe('login');
  });
});
