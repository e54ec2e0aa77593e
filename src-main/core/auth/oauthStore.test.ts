// Two processes share the keychain: a change made by one OAuthStore must keep what another saved since
// this one last read (each process caches entries for the per-request bearer token).
import { describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../secrets/secretStore';
import { OAuthStore } from './oauthStore';

const RESOURCE = 'https://mcp.example.com/mcp';
const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer' }) as never;

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
});
