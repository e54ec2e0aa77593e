// The packaged app's secret file on Electron safeStorage, behind a fake cipher (real AES-256-GCM with a key
// this test holds, standing in for the key the OS keeps): encrypted, 0600, never overwritten when it cannot
// be read, refused where the OS would only offer a fixed key; and, behind FallbackSecretStore, what the
// servers' secrets go to when keytar cannot load.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServersStore } from '../core/config/serversStore';
import { FallbackSecretStore } from '../core/secrets/fallbackSecretStore';
import { KeytarSecretStore } from '../core/secrets/secretStore';
import { ServerManager } from '../core/config/serverManager';
import { SafeStorageSecretStore, SECRETS_FILE_NAME, type StringCipher } from './safeStorageSecretStore';

class FakeCipher implements StringCipher {
  available = true;
  backend = 'gnome_libsecret';
  constructor(private readonly key = randomBytes(32)) {}
  isEncryptionAvailable() {
    return this.available;
  }
  getSelectedStorageBackend() {
    return this.backend;
  }
  encryptString(plain: string): Buffer {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return Buffer.concat([iv, c.getAuthTag(), body]);
  }
  decryptString(data: Buffer): string {
    const d = createDecipheriv('aes-256-gcm', this.key, data.subarray(0, 12));
    d.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([d.update(data.subarray(28)), d.final()]).toString('utf8');
  }
}

const MARK = `mooring-test-secret-${process.pid}`;
let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mooring-safestorage-'));
});
afterEach(async () => rm(home, { recursive: true, force: true }));

describe('SafeStorageSecretStore', () => {
  it('round-trips secrets through one encrypted 0600 file that names neither accounts nor values', async () => {
    const cipher = new FakeCipher();
    const store = new SafeStorageSecretStore({ home, cipher, platform: 'linux' });
    expect(await store.available()).toEqual({ ok: true });
    expect(await store.get('server/gh/env/TOKEN')).toBeNull();
    await store.set('server/gh/env/TOKEN', `${MARK}-ünï-${'x'.repeat(5000)}`);
    await store.set('server/web/header/Authorization', `Bearer ${MARK}`);
    expect(await store.get('server/gh/env/TOKEN')).toBe(`${MARK}-ünï-${'x'.repeat(5000)}`);

    const text = await readFile(join(home, SECRETS_FILE_NAME), 'utf8');
    expect(text).not.toContain(MARK);
    expect(text).not.toContain('server/gh');
    expect((await stat(join(home, SECRETS_FILE_NAME))).mode & 0o777).toBe(0o600);

    // Another instance (the next start of the app) with the same OS key reads them back.
    const again = new SafeStorageSecretStore({ home, cipher, platform: 'linux' });
    expect(await again.get('server/web/header/Authorization')).toBe(`Bearer ${MARK}`);
    expect(await again.delete('server/web/header/Authorization')).toBe(true);
    expect(await again.delete('server/web/header/Authorization')).toBe(false);
    expect(await store.get('server/web/header/Authorization')).toBeNull();
  });

  it('concurrent writes, from one store or several on the same file, are serialised: none is lost', async () => {
    const cipher = new FakeCipher();
    const stores = [0, 1, 2].map(() => new SafeStorageSecretStore({ home, cipher, platform: 'linux' }));
    await Promise.all(Array.from({ length: 30 }, (_, i) => stores[i % 3]!.set(`k${i}`, `v${i}`)));
    for (let i = 0; i < 30; i++) expect(await stores[0]!.get(`k${i}`)).toBe(`v${i}`);
  });

  it('no OS key: unavailable with the reason, and nothing is written', async () => {
    const cipher = new FakeCipher();
    cipher.available = false;
    const store = new SafeStorageSecretStore({ home, cipher, platform: 'darwin' });
    expect(await store.available()).toEqual({
      ok: false,
      reason: expect.stringMatching(/no key to encrypt/),
    });
    await expect(store.set('a', MARK)).rejects.toMatchObject({ code: 'secret_unavailable' });
    expect(await readdir(home)).toEqual([]);
  });

  it('Linux with only the fixed-key backend (basic_text) is refused: that would be plain text in disguise', async () => {
    const cipher = new FakeCipher();
    cipher.backend = 'basic_text';
    const linux = new SafeStorageSecretStore({ home, cipher, platform: 'linux' });
    expect(await linux.available()).toEqual({
      ok: false,
      reason: expect.stringMatching(/fixed key; Mooring refuses/),
    });
    await expect(linux.get('a')).rejects.toMatchObject({ code: 'secret_unavailable' });
    // The backend name only means that on Linux.
    expect(await new SafeStorageSecretStore({ home, cipher, platform: 'win32' }).available()).toEqual({
      ok: true,
    });
  });

  it('a file it cannot decrypt (the OS key changed) is reported and left untouched, never overwritten', async () => {
    await new SafeStorageSecretStore({ home, cipher: new FakeCipher(), platform: 'linux' }).set('a', MARK);
    const before = await readFile(join(home, SECRETS_FILE_NAME), 'utf8');
    const other = new SafeStorageSecretStore({ home, cipher: new FakeCipher(), platform: 'linux' });
    await expect(other.get('a')).rejects.toMatchObject({
      code: 'secret_unavailable',
      message: expect.stringMatching(/cannot be read .* it is left as it is/),
    });
    await expect(other.set('b', 'x')).rejects.toMatchObject({ code: 'secret_unavailable' });
    expect(await readFile(join(home, SECRETS_FILE_NAME), 'utf8')).toBe(before);
  });

  it('a file that is not ours is reported, not parsed as secrets', async () => {
    await writeFile(join(home, SECRETS_FILE_NAME), '{"hello": 1}');
    const store = new SafeStorageSecretStore({ home, cipher: new FakeCipher(), platform: 'linux' });
    await expect(store.get('a')).rejects.toMatchObject({
      message: expect.stringMatching(/not a Mooring secrets file/),
    });
  });
});

describe('the packaged app without keytar: FallbackSecretStore over this file', () => {
  it('a server’s secret env goes to the encrypted file; mcp_servers.json holds only "<keychain>"', async () => {
    const secrets = new FallbackSecretStore({
      keychain: new KeytarSecretStore({ load: () => import('keytar-not-installed' as string) }),
      fallback: new SafeStorageSecretStore({ home, cipher: new FakeCipher(), platform: 'linux' }),
    });
    const store = ServersStore.forHome(home);
    const mgr = new ServerManager(store, secrets);
    await mgr.add({
      name: 'gh',
      command: 'docker',
      env: { GITHUB_TOKEN: `${MARK}-env` },
      secretEnv: ['GITHUB_TOKEN'],
    });
    expect((await mgr.resolve('gh', {})).env.GITHUB_TOKEN).toBe(`${MARK}-env`);
    expect(await readFile(store.file, 'utf8')).toContain('"GITHUB_TOKEN": "<keychain>"');
    for (const f of await readdir(home))
      expect(await readFile(join(home, f), 'utf8').catch(() => ''), f).not.toContain(MARK);
    await store.close();
  });
});
