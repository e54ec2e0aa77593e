// The auth room's rules: the loopback redirect listener (fixed port, state check, timeout, one
// callback only), which authorization URLs a browser may open, and the same-origin issuer tolerance.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../../test/helpers/servers';
import { isSafeAuthorizationUrl } from './authorizationUrl';
import { issuerAcceptable } from './oauthProvider';
import { listenForCallback, redirectUrlFor } from './redirectListener';

afterEach(() => vi.useRealTimers());

describe('isSafeAuthorizationUrl', () => {
  it.each([
    ['https://login.example.com/authorize?x=1', true],
    ['http://127.0.0.1:9000/authorize', true],
    ['http://localhost:9000/authorize', true],
    ['http://[::1]:9000/authorize', true],
    ['http://login.example.com/authorize', false],
    ['http://10.0.0.1/authorize', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['ms-settings:privacy', false],
    ['not a url', false],
  ])('%s → %s', (url, ok) => expect(isSafeAuthorizationUrl(url)).toBe(ok));
});

describe('listenForCallback', () => {
  it('answers the matching callback once, on 127.0.0.1 at the fixed port, and ignores other paths', async () => {
    const port = await freePort();
    const wait = await listenForCallback({ port, state: 's1', server: 'remote' });
    expect((await fetch(`http://127.0.0.1:${port}/favicon.ico`)).status).toBe(404);
    const res = await fetch(`${redirectUrlFor(port)}?code=c1&state=s1&iss=https%3A%2F%2Fas`);
    expect(res.status).toBe(200);
    const params = await wait.result;
    expect(Object.fromEntries(params)).toEqual({ code: 'c1', state: 's1', iss: 'https://as' });
    // Closed after the one callback: the port is free again.
    await expect(fetch(`${redirectUrlFor(port)}?code=c2&state=s1`)).rejects.toThrow();
  });

  it('fails on a state mismatch and says so', async () => {
    const port = await freePort();
    const wait = await listenForCallback({ port, state: 'right', server: 'remote' });
    const res = await fetch(`${redirectUrlFor(port)}?code=c1&state=wrong`);
    expect(res.status).toBe(400);
    await expect(wait.result).rejects.toMatchObject({
      code: 'auth_required',
      message: expect.stringMatching(/state mismatch/),
    });
  });

  it('times out with a hint to sign in again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const port = await freePort();
    const wait = await listenForCallback({ port, state: 's', server: 'remote', timeoutMs: 60_000 });
    vi.advanceTimersByTime(60_000);
    await expect(wait.result).rejects.toMatchObject({
      code: 'timeout',
      hint: 'Sign in again: mooring mcp login remote',
    });
  });

  it('reports a busy port with what to do', async () => {
    const port = await freePort();
    const first = await listenForCallback({ port, state: 'a', server: 'one' });
    await expect(listenForCallback({ port, state: 'b', server: 'two' })).rejects.toMatchObject({
      code: 'auth_required',
      hint: expect.stringMatching(/oauthRedirectPort/),
    });
    first.close();
    await expect(first.result).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('issuerAcceptable (issuerCheck: same-origin)', () => {
  it.each([
    ['https://as.example.com', 'https://as.example.com', true],
    ['https://as.example.com', 'https://as.example.com/tenant1', true],
    ['https://as.example.com/tenant1', 'https://as.example.com/tenant1/', true],
    ['https://as.example.com/tenant2', 'https://as.example.com/tenant1', false],
    ['https://as.example.com/ten', 'https://as.example.com/tenant1', false],
    ['https://evil.example.com', 'https://as.example.com/tenant1', false],
    ['http://as.example.com', 'https://as.example.com', false],
  ])('issuer %s for %s → %s', (issuer, url, ok) => expect(issuerAcceptable(issuer, url)).toBe(ok));
});
