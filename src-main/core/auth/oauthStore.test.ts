// The keychain side of OAuth. Two processes share the keychain: a change made by one OAuthStore must keep
// what another saved since this one last read (each process caches entries for the per-request bearer
// token). Tokens are secrets the redactor must know (README, "Safety"): the store reports every token and
// client secret it reads or writes; the core wires that to its redactor. Without a keychain, a server that
// never signed in reads as "not signed in" instead of failing.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { authAccount, OAuthStore } from './oauthStore';

const RESOURCE = 'https://mcp.example.com/mcp';
const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer' }) as never;
const entry = JSON.stringify({
  resource: RESOURCE,
  current: 'https://auth.example.com',
  issuers: {
    'https://auth.example.com': {
      client: { client_id: 'c1', client_secret: 'client-secret-1', redirect_uris: [] },
      tokens: { access_token: 'access-token-1', refresh_token: 'refresh-token-1', token_type: 'Bearer' },
    },
  },
});

describe('OAuthStore', () => {
  it('re-reads the keychain before a change, so another process’s tokens are kept', async () => {
    const keychain = new MemorySecretStore();
    const app = new OAuthStore(keychain);
    const serve = new OAuthStore(keychain);
    await app.read('remote', RESOURCE); // cached: no issuers yet
    await serve.update('remote', RESOURCE, (e) => {
      e.issuers['https://as-one.example.com'] = { tokens: tokens('from-serve') };
    });
    await app.update('remote', RESOURCE, (e) => {
      e.issuers['https://as-two.example.com'] = { tokens: tokens('from-app') };
    });
    const fresh = await new OAuthStore(keychain).read('remote', RESOURCE);
    expect(Object.keys(fresh.issuers).sort()).toEqual([
      'https://as-one.example.com',
      'https://as-two.example.com',
    ]);
  });

  it('reports the tokens and client secret it reads and stores', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set(authAccount('remote'), entry);
    const learned: string[] = [];
    const store = new OAuthStore(secrets, (v) => learned.push(...v));
    await store.read('remote', RESOURCE);
    expect(learned.sort()).toEqual(['access-token-1', 'client-secret-1', 'refresh-token-1']);
    await store.update('remote', RESOURCE, (e) => {
      e.issuers['https://auth.example.com']!.tokens = {
        access_token: 'access-token-2',
        token_type: 'Bearer',
      };
    });
    expect(learned).toContain('access-token-2');
  });

  it('without a keychain: nothing stored reads as not signed in; storing says what works instead', async () => {
    const store = new OAuthStore(new MemorySecretStore({ unavailable: 'no D-Bus session' }));
    expect(await store.read('remote', RESOURCE)).toEqual({ resource: RESOURCE, issuers: {} });
    // A change that leaves nothing to store needs no keychain.
    await store.update('remote', RESOURCE, (e) => delete e.discovery);
    await expect(
      store.update('remote', RESOURCE, (e) => {
        e.issuers.x = { tokens: { access_token: 'a', token_type: 'Bearer' } };
      }),
    ).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: expect.stringContaining('Signing in to "remote" needs a keychain to keep its tokens'),
      hint: expect.stringContaining('${env:NAME}'),
    });
  });

  it('the core masks a token once its store has seen it', async () => {
    const secrets = new MemorySecretStore();
    await secrets.set(authAccount('remote'), entry);
    const core = await MooringCore.open({ home: tempDir('mooring-oauth-redact-'), secretStore: secrets });
    try {
      expect(core.redactor.redact('Bearer access-token-1')).toBe('Bearer access-token-1');
      await core.servers.add({ name: 'remote', transport: 'http', url: RESOURCE }, { start: false });
      await core.auth.state('remote');
      expect(core.redactor.redact('Bearer access-token-1, refresh-token-1')).toBe(
        'Bearer [redacted], [redacted]',
      );
    } finally {
      await core.close();
    }
  });
});
