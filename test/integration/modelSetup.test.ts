// The first model's setup in the core (docs/chat.md, "The first model"): a fresh home whose suggested model
// does not answer needs the setup; `models.setUp` keeps the typed key in the keychain (never in a file),
// the provider's base URL in settings.json and the picked model as the default, and then no setup is needed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { apiKeyAccount } from '../../src-main/core/agent/providerAccess';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import { tempDir } from '../helpers/servers';

const closing: { close(): Promise<unknown> }[] = [];
afterAll(async () => {
  for (const c of closing) await c.close();
});

describe('the first model setup', () => {
  it('a fresh home needs it; setUp stores the key in the keychain, the URL and the default model', async () => {
    const model = await startOpenAIServer([]);
    closing.push(model);
    const home = tempDir('mooring-model-setup-');
    const secrets = new MemorySecretStore();
    // Nobody on Ollama's port (9 refuses), no model named by the environment.
    const env: NodeJS.ProcessEnv = { ...process.env, MOORING_OLLAMA_URL: 'http://127.0.0.1:9' };
    delete env.MOORING_MODEL;
    const core = await MooringCore.open({ home, secretStore: secrets, env });
    closing.push(core);

    const fresh = await core.models.status();
    expect(fresh).toMatchObject({ model: 'ollama:llama3.2', needsSetup: true, check: { ok: false } });
    expect((await core.models.view()).chosen).toBe(false);

    const check = await core.providers.check('openai', 8_000, {
      baseUrl: `${model.url}/v1`,
      apiKey: 'sk-setup',
    });
    expect(check).toEqual({ ok: true, models: ['gpt-4o'] });
    await core.models.setUp({
      provider: 'openai',
      baseUrl: `${model.url}/v1`,
      model: 'gpt-4o',
      apiKey: 'sk-setup',
    });

    expect(await secrets.get(apiKeyAccount('openai'))).toBe('sk-setup');
    const keyFile = join(home, 'provider-keys.json');
    if (existsSync(keyFile)) expect(readFileSync(keyFile, 'utf8')).not.toContain('sk-setup');
    expect(readFileSync(join(home, 'settings.json'), 'utf8')).not.toContain('sk-setup');
    const after = await core.models.status();
    expect(after).toMatchObject({
      model: 'openai:gpt-4o',
      needsSetup: false,
      listed: true,
      check: { ok: true },
    });
    // The model list the check read was asked with the stored key.
    expect(model.requests.at(-1)?.headers.authorization).toBe('Bearer sk-setup');
  });

  it('a spec that is not a model writes nothing', async () => {
    const home = tempDir('mooring-model-setup-bad-');
    const core = await MooringCore.open({ home, secretStore: new MemorySecretStore() });
    closing.push(core);
    await expect(core.models.setUp({ provider: 'openai', baseUrl: null, model: '   ' })).rejects.toThrow(
      /not a model/,
    );
    expect(existsSync(join(home, 'settings.json'))).toBe(false);
  });
});
