// Server-initiated sampling through MooringCore: server-everything asks for a completion, the user
// approves it (the interaction broker), and the user's model answers over a real provider wire format.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultText } from '@shared/toolResult';
import { resolveProvider } from '../../src-main/core/agent/providers/resolveProvider';
import { providerCompletion } from '../../src-main/core/agent/samplingCompletion';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startOllamaServer } from '../fixtures/providers/ollamaServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { EVERYTHING, tempDir } from '../helpers/servers';

let core: MooringCore | undefined;
let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await core?.close();
  await fake?.close();
});

describe('sampling through the core', () => {
  it('asks the user, then answers the server with the configured model', async () => {
    fake = await startOllamaServer([{ text: 'Why did the tool cross the pipe?' }]);
    const home = tempDir('mooring-sampling-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
    const env = { ...process.env, MOORING_NO_SHELL_PATH: '1', MOORING_OLLAMA_URL: fake.url };
    core = await MooringCore.open({ home, env, secretStore: new MemorySecretStore() });
    const { provider, model } = resolveProvider('ollama:llama3.2', {}, env);
    core.setSamplingModel(providerCompletion(provider, model));
    await core.start();
    const c = core;
    c.on('interaction', (i) => {
      expect(i.kind).toBe('sampling');
      c.interactions.answer(i.id, { kind: 'sampling', outcome: 'approve' });
    });
    const out = await c.tools.call(
      'mcp__every__trigger-sampling-request',
      { prompt: 'a joke please', maxTokens: 50 },
      { preApproved: true },
    );
    expect(resultText(out.result)).toContain('Why did the tool cross the pipe?');
    // The model got the server's prompt.
    expect(JSON.stringify(fake.requests[0]?.body.messages)).toContain('a joke please');
  });
});
