// OAuth 2.1 end to end against a local authorization server + protected MCP server (ARCHITECTURE.md,
// `auth/`): sign-in, refresh on 401 and before expiry, one refresh for two 401s, a revoked refresh token,
// step-up, state mismatch, unsafe authorization URLs and missing PKCE support refused. Real HTTP on
// 127.0.0.1, real SessionActors.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '@shared/config';
import type { LogLine } from '@shared/session';
import {
  startAuthServer,
  type AuthServerFixture,
  type AuthServerOptions,
} from '../../../test/fixtures/authServer';
import { cfg, freePort } from '../../../test/helpers/servers';
import { MooringError } from '../errors';
import { SessionActor } from '../mcp/sessionActor';
import { MemorySecretStore } from '../secrets/secretStore';
import { followAuthorizationRedirects } from './headlessOpener';
import { OAuthManager } from './oauthManager';
import type { AuthorizationPrompt } from './oauthProvider';
import { transportAuth } from './authTransport';

let fixture: AuthServerFixture | undefined;
const actors: SessionActor[] = [];
afterEach(async () => {
  await Promise.all(actors.splice(0).map((a) => a.close()));
  await fixture?.close();
  fixture = undefined;
});

async function setup(opts: AuthServerOptions = {}) {
  fixture = await startAuthServer(opts);
  const secrets = new MemorySecretStore();
  const port = await freePort();
  const manager = new OAuthManager({ secrets, redirectPort: () => port, callbackTimeoutMs: 10_000 });
  const config = cfg({ name: 'remote', transport: 'http', url: fixture.mcpUrl });
  const prompts: AuthorizationPrompt[] = [];
  const inner = followAuthorizationRedirects();
  const opener = async (p: AuthorizationPrompt) => {
    prompts.push(p);
    await inner(p);
  };
  return { fixture, secrets, manager, config, prompts, opener, port };
}

/** A session as the app runs it in the background: stored tokens only, never a browser. */
function backgroundSession(manager: OAuthManager, config: ServerConfig): SessionActor {
  const actor = new SessionActor({ config, authProviderFor: manager.authFor, backoff: noRetry });
  actors.push(actor);
  return actor;
}
const noRetry = { maxAttempts: 0, baseMs: 10, capMs: 10, stableMs: 1000 };

/**
 * Starts a session and waits until its 2026-07-28 change stream is open (the fixture speaks that era), so
 * the stream's own first request does not meet a token a test is about to expire.
 */
async function startListening(actor: SessionActor): Promise<void> {
  const listening = new Promise<void>((resolve) =>
    actor.on('log', (l: LogLine) => l.text.startsWith('listening for changes') && resolve()),
  );
  await actor.start();
  expect(actor.protocolEra()).toBe('modern');
  await listening;
}

describe('sign-in and tokens', () => {
  it('signs in through the 401, sends the resource indicator, and keeps tokens only in the keychain store', async () => {
    const { fixture, manager, config, prompts, opener, secrets } = await setup();
    const result = await manager.signIn(config, { opener });
    expect(result).toMatchObject({ signedIn: true, scope: 'mcp:read', refreshable: true, toolCount: 2 });
    // The UI/CLI was told which server sends the user to which host before anything opened.
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ server: 'remote', host: new URL(fixture.base).host });
    expect(fixture.counts).toMatchObject({ register: 1, authorize: 1, code: 1 });
    expect(new Set(fixture.resources)).toEqual(new Set([fixture.mcpUrl]));
    const stored = [...secrets.entries.values()].join('\n');
    expect(fixture.issued.some((t) => stored.includes(t))).toBe(true);
    // The PKCE verifier is gone once the code was redeemed.
    expect([...secrets.entries.keys()]).toEqual(['mcp/remote/oauth']);

    const actor = backgroundSession(manager, config);
    await actor.start();
    expect((await actor.callTool('whoami', {})).content).toEqual([
      { type: 'text', text: 'a signed-in user' },
    ]);
    expect(fixture.counts.authorize).toBe(1);
  });

  it('refreshes on a 401 and carries on without a browser', async () => {
    const { fixture, manager, config, opener } = await setup();
    await manager.signIn(config, { opener });
    const actor = backgroundSession(manager, config);
    await startListening(actor);
    fixture.expireAccessTokens();
    const before401 = fixture.counts.mcp401;
    expect((await actor.callTool('whoami', {})).isError).toBeFalsy();
    expect(fixture.counts.mcp401).toBe(before401 + 1);
    expect(fixture.counts.refresh).toBe(1);
    expect(fixture.counts.authorize).toBe(1);
  });

  it('two requests that meet a 401 together refresh once: the rotated refresh token is not spent twice', async () => {
    // The server rotates refresh tokens (each refresh kills the old one), as OAuth 2.1 allows.
    const { fixture, manager, config, opener } = await setup();
    await manager.signIn(config, { opener });
    const actor = backgroundSession(manager, config);
    await startListening(actor);
    fixture.expireAccessTokens();
    const results = await Promise.all([actor.callTool('whoami', {}), actor.callTool('whoami', {})]);
    expect(results.map((r) => r.isError ?? false)).toEqual([false, false]);
    expect(fixture.counts).toMatchObject({ refresh: 1, refreshRejected: 0, authorize: 1 });
    expect(await manager.signInState(config)).toMatchObject({ signedIn: true });
  });

  it('refreshes a token about to expire before sending, so the server never answers 401', async () => {
    const { fixture, manager, config, opener } = await setup({ accessTokenTtl: 30 });
    await manager.signIn(config, { opener });
    const refreshesAfterSignIn = fixture.counts.refresh;
    const actor = backgroundSession(manager, config);
    await actor.start();
    const before401 = fixture.counts.mcp401;
    await actor.callTool('whoami', {});
    expect(fixture.counts.refresh).toBeGreaterThan(refreshesAfterSignIn);
    expect(fixture.counts.mcp401).toBe(before401);
  });

  it('a revoked refresh token ends in a clear "sign in again" state, not a loop', async () => {
    const { fixture, manager, config, opener } = await setup();
    await manager.signIn(config, { opener });
    const actor = backgroundSession(manager, config);
    await actor.start();
    fixture.revokeRefreshTokens();
    fixture.expireAccessTokens();
    const err = await actor.callTool('whoami', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MooringError);
    expect(err).toMatchObject({ code: 'auth_required', hint: 'Sign in again: mooring mcp login remote' });
    expect(fixture.counts.refreshRejected).toBe(1);
    // Again: the dead refresh token was forgotten, so nothing is retried and no browser opens.
    await expect(actor.callTool('whoami', {})).rejects.toMatchObject({ code: 'auth_required' });
    expect(fixture.counts.refresh).toBe(1);
    expect(fixture.counts.authorize).toBe(1);
    expect(await manager.signInState(config)).toEqual({ signedIn: false });
  });

  it('a server that needs a sign-in fails a background start with auth_required', async () => {
    const { fixture, manager, config } = await setup();
    const actor = backgroundSession(manager, config);
    await expect(actor.start()).rejects.toMatchObject({
      code: 'auth_required',
      hint: 'Sign in again: mooring mcp login remote',
    });
    expect(actor.status()).toMatchObject({ state: 'failed', error: { code: 'auth_required' } });
    expect(fixture.counts.authorize).toBe(0);
  });

  it('steps up the scope on 403 insufficient_scope and retries the call once authorized', async () => {
    const { fixture, manager, config, opener } = await setup();
    const actor = new SessionActor({
      config,
      authProviderFor: () => transportAuth(manager.provider(config, opener)),
    });
    actors.push(actor);
    await actor.start();
    expect(fixture.requestedScopes).toEqual(['mcp:read']);
    expect((await actor.callTool('admin', {})).content).toEqual([{ type: 'text', text: 'admin done' }]);
    expect(fixture.requestedScopes).toHaveLength(2);
    expect(fixture.requestedScopes[1]!.split(' ').sort()).toEqual(['mcp:admin', 'mcp:read']);
  });

  it('sign-out forgets tokens and registration', async () => {
    const { manager, config, opener, secrets } = await setup();
    await manager.signIn(config, { opener });
    expect(secrets.entries.size).toBeGreaterThan(0);
    await manager.signOut('remote');
    expect(secrets.entries.size).toBe(0);
    expect(await manager.signInState(config)).toEqual({ signedIn: false });
  });
});

describe('refusals', () => {
  it('refuses a callback whose state does not match the request (no code is redeemed)', async () => {
    const { fixture, manager, config, opener } = await setup({ stateOverride: 'forged-state' });
    const err = await manager.signIn(config, { opener }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'auth_required' });
    expect((err as Error).message).toMatch(/state mismatch/);
    expect(fixture.counts.code).toBe(0);
  });

  it('refuses to open a plain-http authorization URL on a remote host', async () => {
    const { fixture, manager, config, opener, prompts } = await setup({
      authorizationEndpoint: 'http://login.example.com/authorize',
    });
    const err = await manager.signIn(config, { opener }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'refused' });
    expect((err as Error).message).toContain('http://login.example.com');
    expect(prompts).toHaveLength(0);
    expect(fixture.counts.authorize).toBe(0);
  });

  it.each([
    ['does not advertise PKCE', null],
    ['advertises only plain', ['plain']],
  ])('refuses an authorization server that %s, before registering', async (_why, methods) => {
    const { fixture, manager, config, opener, prompts } = await setup({ pkceMethods: methods });
    const err = await manager.signIn(config, { opener }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'refused' });
    expect((err as Error).message).toMatch(/PKCE S256/);
    expect(prompts).toHaveLength(0);
    expect(fixture.counts).toMatchObject({ register: 0, authorize: 0 });
  });
});
