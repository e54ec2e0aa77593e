import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@shared/settings';
import { MemorySecretStore } from '../secrets/secretStore';
import { ProviderAccess } from './providerAccess';
import { ProviderKeyFile } from './providerKeyFile';

let home: string;
let access: ProviderAccess;
const env: NodeJS.ProcessEnv = { MY_OPENAI_KEY: 'sk-from-env-ref' };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mooring-keys-'));
  access = new ProviderAccess({
    // No keychain on this host: every keychain call fails as unavailable.
    secrets: new MemorySecretStore({ unavailable: 'no Secret Service on D-Bus' }),
    keyFile: new ProviderKeyFile(home),
    settings: () => DEFAULT_SETTINGS,
    env: () => env,
  });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const fileText = () => readFileSync(join(home, 'provider-keys.json'), 'utf8');

describe('API keys without a keychain', () => {
  it('an ${env:NAME} reference keeps only the name on disk and reads the key from the environment', async () => {
    await access.setApiKey('openai', '${env:MY_OPENAI_KEY}', 'envRef');
    expect(JSON.parse(fileText())).toEqual({ openai: { envRef: 'MY_OPENAI_KEY' } });
    expect(await access.storedApiKey('openai')).toBe('sk-from-env-ref');
    const view = (await access.views()).find((p) => p.id === 'openai');
    expect(view).toMatchObject({ keyStored: true, keySource: 'envRef', keyEnvRef: 'MY_OPENAI_KEY' });
    // A key pasted where a reference belongs is refused, not written.
    await expect(access.setApiKey('openai', 'sk-oops-a-key', 'envRef')).rejects.toMatchObject({
      code: 'usage',
    });
    expect(fileText()).not.toContain('sk-oops');
    await expect(access.setApiKey('openai', '${env:not valid}', 'envRef')).rejects.toMatchObject({
      code: 'usage',
    });
  });

  it('the plain-text file, chosen explicitly, is readable by its owner only', async () => {
    await access.setApiKey('anthropic', 'sk-ant-in-file', 'file');
    expect(await access.storedApiKey('anthropic')).toBe('sk-ant-in-file');
    if (process.platform !== 'win32')
      expect(statSync(join(home, 'provider-keys.json')).mode & 0o777).toBe(0o600);
    expect((await access.views()).find((p) => p.id === 'anthropic')?.keySource).toBe('file');
    await access.setApiKey('anthropic', '');
    expect(await access.storedApiKey('anthropic')).toBeUndefined();
    expect(fileText()).not.toContain('sk-ant-in-file');
  });

  it('the keychain stays the default: without one, a key is refused rather than written in plain text', async () => {
    await expect(access.setApiKey('openai', 'sk-plain')).rejects.toMatchObject({
      code: 'secret_unavailable',
    });
    expect(() => fileText()).toThrow(/ENOENT/);
  });
});
