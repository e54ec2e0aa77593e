// The keychain-or-fallback choice: existing keychain entries keep working, secrets written while keytar
// could not load are still found when it loads again, and a write never leaves a stale copy behind.
import { describe, expect, it } from 'vitest';
import { FallbackSecretStore, type SecretStoreChoice } from './fallbackSecretStore';
import { KeytarSecretStore, MemorySecretStore, NO_KEYCHAIN_HINT } from './secretStore';

const noKeytar = () =>
  new KeytarSecretStore({
    service: 'Mooring-test-none',
    load: () => import('keytar-not-installed' as string),
  });

describe('FallbackSecretStore', () => {
  it('keychain available: it is chosen, its existing entries read, writes go there and clear a stale fallback copy', async () => {
    const keychain = new MemorySecretStore();
    const fallback = new MemorySecretStore();
    keychain.entries.set('server/gh/env/TOKEN', 'from-before');
    fallback.entries.set('server/web/header/Authorization', 'written-while-keytar-could-not-load');
    fallback.entries.set('server/gh/env/OLD', 'stale');
    const choices: SecretStoreChoice[] = [];
    const store = new FallbackSecretStore({ keychain, fallback, onChoice: (c) => choices.push(c) });

    expect(await store.get('server/gh/env/TOKEN')).toBe('from-before');
    expect(await store.get('server/web/header/Authorization')).toBe('written-while-keytar-could-not-load');
    await store.set('server/gh/env/OLD', 'new');
    expect(keychain.entries.get('server/gh/env/OLD')).toBe('new');
    expect(fallback.entries.has('server/gh/env/OLD')).toBe(false);
    expect(await store.get('server/none')).toBeNull();
    expect(choices).toEqual([{ store: 'keychain' }]);
    expect(await store.chosen()).toBe('keychain');
  });

  it('keytar cannot load: the fallback serves every call, and says why it was chosen', async () => {
    const fallback = new MemorySecretStore();
    const choices: SecretStoreChoice[] = [];
    const store = new FallbackSecretStore({
      keychain: noKeytar(),
      fallback,
      onChoice: (c) => choices.push(c),
    });
    expect(await store.available()).toEqual({ ok: true });
    await store.set('a', '1');
    expect(fallback.entries.get('a')).toBe('1');
    expect(await store.get('a')).toBe('1');
    expect(await store.get('missing')).toBeNull();
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(choices).toEqual([
      { store: 'fallback', keychainUnavailable: expect.stringMatching(/keytar module could not be loaded/) },
    ]);
  });

  it('neither available: the keychain’s error, with the hint to use an environment reference', async () => {
    const store = new FallbackSecretStore({
      keychain: noKeytar(),
      fallback: new MemorySecretStore({ unavailable: 'no OS key' }),
    });
    await expect(store.set('a', '1')).rejects.toMatchObject({
      code: 'secret_unavailable',
      hint: NO_KEYCHAIN_HINT,
    });
    expect(await store.available()).toMatchObject({ ok: false });
    expect(await store.chosen()).toBe('keychain');
  });

  it('deletes from both stores, so a removed server leaves no copy anywhere', async () => {
    const keychain = new MemorySecretStore();
    const fallback = new MemorySecretStore();
    keychain.entries.set('x', 'k');
    fallback.entries.set('x', 'f');
    const store = new FallbackSecretStore({ keychain, fallback });
    expect(await store.delete('x')).toBe(true);
    expect([keychain.entries.size, fallback.entries.size]).toEqual([0, 0]);
  });
});
