// ServerManager: secrets go to the keychain, the file holds "<keychain>", and a failed change
// leaves neither a new secret nor a changed file. Real files; MemorySecretStore stands in for the
// keychain here (the same flows run against a real Secret Service in keytarSecretStore.test.ts).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServersStore } from './serversStore';
import { MemorySecretStore } from '../secrets/secretStore';
import { KEYCHAIN_REF, MASK } from '../secrets/serverSecrets';
import { ServerManager } from './serverManager';

let home: string;
let store: ServersStore;
let secrets: MemorySecretStore;
let mgr: ServerManager;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'mooring-mgr-'));
  store = ServersStore.forHome(home);
  secrets = new MemorySecretStore();
  mgr = new ServerManager(store, secrets);
});
afterEach(async () => {
  await store.close();
  await rm(home, { recursive: true, force: true });
});

const fileText = () => readFile(store.file, 'utf8');

describe('ServerManager', () => {
  it('add stores secret values in the keychain and only "<keychain>" in the file', async () => {
    await mgr.add({
      name: 'gh',
      command: 'docker',
      env: { GITHUB_TOKEN: 'ghp_S3CRET', MODE: 'ro' },
      headers: {},
    });
    const text = await fileText();
    expect(text).not.toContain('ghp_S3CRET');
    expect(JSON.parse(text).servers[0]).toMatchObject({
      env: { GITHUB_TOKEN: KEYCHAIN_REF, MODE: 'ro' },
      secretEnv: ['GITHUB_TOKEN'],
    });
    expect(secrets.entries.get('server/gh/env/GITHUB_TOKEN')).toBe('ghp_S3CRET');
    expect((await mgr.resolve('gh', {})).env.GITHUB_TOKEN).toBe('ghp_S3CRET');
    expect((await mgr.listMasked())[0]!.env).toEqual({ GITHUB_TOKEN: MASK, MODE: 'ro' });
  });

  it('add without a keychain fails with the env-reference hint and writes nothing', async () => {
    const none = new ServerManager(store, new MemorySecretStore({ unavailable: 'no Secret Service' }));
    await expect(none.add({ name: 'gh', command: 'x', env: { API_TOKEN: 'v' } })).rejects.toMatchObject({
      code: 'secret_unavailable',
      hint: expect.stringMatching(/Write \$\{env:NAME\} where the secret goes .* and export NAME/),
    });
    await expect(readFile(store.file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    // …and the reference it suggests works without a keychain.
    await none.add({ name: 'gh', command: 'x', env: { API_TOKEN: '${env:GH_TOKEN}' } });
    expect((await none.resolve('gh', { GH_TOKEN: 'from-env' })).env.API_TOKEN).toBe('from-env');
  });

  it("add of a duplicate name leaves the existing server's secret untouched", async () => {
    await mgr.add({ name: 'gh', command: 'x', env: { TOKEN: 'first' } });
    await expect(mgr.add({ name: 'gh', command: 'x', env: { TOKEN: 'second' } })).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(secrets.entries.get('server/gh/env/TOKEN')).toBe('first');
  });

  it('add of an invalid input touches neither the keychain nor the file', async () => {
    await expect(mgr.add({ name: 'bad name', command: 'x', env: { TOKEN: 'v' } })).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(secrets.entries.size).toBe(0);
  });

  it('update with "<keychain>" keeps the stored value; a rename moves it; dropped secrets are deleted', async () => {
    await mgr.add({ name: 'a', command: 'x', env: { TOKEN: 't1', OLD_KEY: 'k1' } });
    await mgr.update('a', { name: 'b', command: 'x', env: { TOKEN: KEYCHAIN_REF }, secretEnv: ['TOKEN'] });
    expect(Object.fromEntries(secrets.entries)).toEqual({ 'server/b/env/TOKEN': 't1' });
    expect((await mgr.resolve('b', {})).env.TOKEN).toBe('t1');

    await mgr.update('b', { name: 'b', command: 'x', env: { TOKEN: 't2' } });
    expect(Object.fromEntries(secrets.entries)).toEqual({ 'server/b/env/TOKEN': 't2' });
    expect(await fileText()).not.toMatch(/t1|t2/);
  });

  it('editing the masked list entry and saving it back keeps the secret (a form round trip)', async () => {
    await mgr.add({
      name: 'web',
      transport: 'http',
      url: 'https://x.example/mcp',
      headers: { Authorization: 'Bearer keep' },
    });
    const [shown] = await mgr.listMasked();
    await mgr.update('web', { ...shown!, timeoutSeconds: 30 });
    expect((await mgr.resolve('web', {})).headers.Authorization).toBe('Bearer keep');
    expect(await store.get('web')).toMatchObject({
      timeoutSeconds: 30,
      headers: { Authorization: KEYCHAIN_REF },
    });
  });

  it('update onto a taken name restores any secret it wrote', async () => {
    await mgr.add({ name: 'a', command: 'x', env: { TOKEN: 'ta' } });
    await mgr.add({ name: 'b', command: 'x', env: { TOKEN: 'tb' } });
    await expect(mgr.update('a', { name: 'b', command: 'x', env: { TOKEN: 'new' } })).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(Object.fromEntries(secrets.entries)).toEqual({
      'server/a/env/TOKEN': 'ta',
      'server/b/env/TOKEN': 'tb',
    });
  });

  it('remove deletes the server and its keychain entries', async () => {
    await mgr.add({
      name: 'web',
      transport: 'http',
      url: 'https://x.example/mcp',
      headers: { Authorization: 'Bearer z' },
    });
    const r = await mgr.remove('web');
    expect(r).toMatchObject({ removed: { name: 'web' }, leftInKeychain: [] });
    expect(secrets.entries.size).toBe(0);
    expect(await store.list()).toEqual([]);
  });

  it('import moves plaintext tokens from a Claude config into the keychain', async () => {
    const text = JSON.stringify({
      mcpServers: {
        github: {
          command: 'docker',
          args: ['run'],
          env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_FROM_CLAUDE' },
        },
        remote: { url: 'https://r.example/mcp', headers: { Authorization: 'Bearer imported' } },
      },
    });
    const r = await mgr.import(text, { fileName: 'claude_desktop_config.json' });
    expect(r.added).toEqual(['github', 'remote']);
    const onDisk = await fileText();
    expect(onDisk).not.toMatch(/ghp_FROM_CLAUDE|Bearer imported/);
    expect((await mgr.resolve('remote', {})).headers.Authorization).toBe('Bearer imported');
  });

  it('an import that collides writes no secret and no file change', async () => {
    await mgr.add({ name: 'github', command: 'x', env: { TOKEN: 'keep-me' } });
    const before = await fileText();
    const text = JSON.stringify({
      mcpServers: {
        github: { command: 'y', env: { TOKEN: 'other' } },
        fresh: { command: 'z', env: { API_KEY: 'k' } },
      },
    });
    await expect(mgr.import(text, { fileName: 'c.json' })).rejects.toMatchObject({ code: 'config_invalid' });
    expect(await fileText()).toBe(before);
    expect(Object.fromEntries(secrets.entries)).toEqual({ 'server/github/env/TOKEN': 'keep-me' });
  });
});
