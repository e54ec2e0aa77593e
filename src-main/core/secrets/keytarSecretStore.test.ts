// KeytarSecretStore against a REAL Secret Service: gnome-keyring on a private D-Bus, started by
// scripts/with-keyring.sh. Outside it, those tests skip with the reason in
// their title. The no-keychain path is tested for real in a child process without any D-Bus.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServersStore } from '../config/serversStore';
import { KeytarSecretStore, SECRET_SERVICE } from './secretStore';
import { ServerManager } from '../config/serverManager';

// with-keyring sets WITH_KEYRING_INNER; gnome-keyring 42 started with --unlock prints no
// GNOME_KEYRING_CONTROL, so either marks a private keyring.
const privateKeyring = Boolean(process.env.GNOME_KEYRING_CONTROL || process.env.WITH_KEYRING_INNER);
const SKIP_REASON =
  ' [SKIPPED: no private Secret Service (GNOME_KEYRING_CONTROL unset); run: bash scripts/with-keyring.sh npx vitest run src-main/core/secrets]';
if (!privateKeyring) console.warn(`keytarSecretStore.test.ts:${SKIP_REASON}`);

// Every test secret carries this marker, so the scan below can find any leak.
const MARK = `mooring-test-secret-${process.pid}-${Date.now()}`;

describe.skipIf(!privateKeyring)(
  `KeytarSecretStore on a real Secret Service${privateKeyring ? '' : SKIP_REASON}`,
  () => {
    const service = `Mooring-test-${process.pid}`;
    const keychain = new KeytarSecretStore({ service });
    let home: string;

    beforeAll(async () => {
      home = await mkdtemp(join(tmpdir(), 'mooring-keychain-'));
    });
    afterAll(async () => {
      const keytar = (await import('keytar')).default;
      for (const c of await keytar.findCredentials(service)) await keytar.deletePassword(service, c.account);
      await rm(home, { recursive: true, force: true });
    });

    it('is available', async () => {
      expect(await keychain.available()).toEqual({ ok: true });
    });

    it('set, get, overwrite and delete a value (unicode and long values intact)', async () => {
      const value = `${MARK}-ünïcødé-✓-${'x'.repeat(4096)}`;
      expect(await keychain.get('t/one')).toBeNull();
      await keychain.set('t/one', value);
      expect(await keychain.get('t/one')).toBe(value);
      await keychain.set('t/one', `${MARK}-second`);
      expect(await keychain.get('t/one')).toBe(`${MARK}-second`);
      expect(await keychain.delete('t/one')).toBe(true);
      expect(await keychain.get('t/one')).toBeNull();
      expect(await keychain.delete('t/one')).toBe(false);
    });

    it('keeps services apart: the default "Mooring" service does not see test entries', async () => {
      await keychain.set('t/isolated', MARK);
      expect(await new KeytarSecretStore().get('t/isolated')).toBeNull();
      expect(SECRET_SERVICE).toBe('Mooring');
      await keychain.delete('t/isolated');
    });

    it('through ServerManager + ServersStore: mcp_servers.json never holds the secret values', async () => {
      const store = ServersStore.forHome(home);
      const mgr = new ServerManager(store, keychain);
      await mgr.add({ name: 'gh', command: 'docker', env: { GITHUB_TOKEN: `${MARK}-env`, MODE: 'ro' } });
      await mgr.add({
        name: 'web',
        transport: 'http',
        url: 'https://api.example.com/mcp',
        headers: { Authorization: `Bearer ${MARK}-hdr` },
        secretHeaders: [],
      });
      await mgr.update('gh', {
        name: 'github',
        command: 'docker',
        env: { GITHUB_TOKEN: '<keychain>', MODE: 'ro' },
        secretEnv: ['GITHUB_TOKEN'],
      });

      const text = await readFile(store.file, 'utf8');
      expect(text).not.toContain(MARK);
      expect(text).toContain('"GITHUB_TOKEN": "<keychain>"');

      expect((await mgr.resolve('github', {})).env.GITHUB_TOKEN).toBe(`${MARK}-env`);
      expect((await mgr.resolve('web', {})).headers.Authorization).toBe(`Bearer ${MARK}-hdr`);
      expect(await keychain.get('server/gh/env/GITHUB_TOKEN')).toBeNull(); // moved on rename

      await mgr.remove('web');
      expect(await keychain.get('server/web/header/Authorization')).toBeNull();

      // No file anywhere in the home holds a test secret.
      for (const entry of await readdir(home, { recursive: true }))
        expect(await readFile(join(home, entry), 'utf8').catch(() => ''), entry).not.toContain(MARK);
      await store.close();
    });
  },
);

describe('KeytarSecretStore without a keychain', () => {
  const secretStorePath = resolve(import.meta.dirname, 'secretStore.ts');

  it('no D-Bus at all (a real child process): available() says why and set() refuses with the env-reference hint', async () => {
    const script = `
      import { KeytarSecretStore } from ${JSON.stringify(secretStorePath)};
      const s = new KeytarSecretStore({ service: 'Mooring-test-nobus' });
      const available = await s.available();
      let error = null;
      try { await s.set('x', 'never-stored'); } catch (e) { error = { code: e.code, hint: e.hint, message: e.message }; }
      process.stdout.write(JSON.stringify({ available, error }));`;
    // Only PATH and HOME: no DBUS_SESSION_BUS_ADDRESS, no DISPLAY, so libsecret cannot reach any Secret Service.
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        env,
        cwd: resolve(import.meta.dirname, '../../..'),
      },
    );
    const out = JSON.parse(stdout) as {
      available: { ok: boolean; reason?: string };
      error: { code: string; hint: string; message: string };
    };
    expect(out.available.ok).toBe(false);
    expect(out.available.reason).toMatch(/D-Bus|DBus|secret/i);
    expect(out.error.code).toBe('secret_unavailable');
    // What it means first; the keychain's own words (D-Bus) only after the first line, as details.
    const [title, said] = out.error.message.split('\n');
    expect(title).toBe('No keychain is reachable on this machine, so Mooring cannot keep secrets in it.');
    expect(said).toBe(`The keychain said: ${out.available.reason}`);
    expect(out.error.hint).toMatch(
      /Write \$\{env:NAME\} where the secret goes .* export NAME before starting Mooring.*install and unlock a keyring.*Secret Service/,
    );
  });

  it('keytar cannot be loaded (optional dependency missing): secret_unavailable, never a crash', async () => {
    const s = new KeytarSecretStore({ load: () => import('keytar-not-installed' as string) });
    expect(await s.available()).toEqual({
      ok: false,
      reason: expect.stringMatching(/the keytar module could not be loaded/),
    });
    await expect(s.get('a')).rejects.toMatchObject({ code: 'secret_unavailable' });
  });
});
