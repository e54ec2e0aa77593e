// A sampling request that offers the model tools (MCP 2025-11-25 "Sampling": `tools`, `toolChoice`), from a
// 2026-07-28 server inside an input_required round and from a 2025-11-25 server as sampling/createMessage,
// through MooringCore: the person approves it in the same dialog (the request view names the tools), the
// user's model gets the tools in its provider's wire format (OpenAI's here), and its tool call goes back to
// the server as a tool_use block with stopReason "toolUse".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Interaction } from '@shared/interactions';
import { resultText } from '@shared/toolResult';
import { resolveProvider } from '../../src-main/core/agent/providers/resolveProvider';
import { providerCompletion } from '../../src-main/core/agent/samplingCompletion';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { eraStdio } from '../helpers/eraServers';
import { tempDir } from '../helpers/servers';

let core: MooringCore | undefined;
let fake: FakeProviderServer | undefined;
afterEach(async () => {
  await core?.close();
  await fake?.close();
});

describe.each(['modern', 'legacy'] as const)('a %s server sampling with tools', (era) => {
  it("passes the tools to the user's model and its tool call back to the server", async () => {
    fake = await startOpenAIServer([
      { text: 'Let me look.', toolCalls: [{ name: 'lookup', arguments: { word: 'mooring' } }] },
    ]);
    const home = tempDir('mooring-sampling-tools-');
    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [eraStdio(era, 'era')] }));
    const env = {
      ...process.env,
      MOORING_NO_SHELL_PATH: '1',
      MOORING_OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    };
    core = await MooringCore.open({ home, env, secretStore: new MemorySecretStore() });
    const { provider, model } = resolveProvider('openai:gpt-4o', {}, env);
    core.setSamplingModel(providerCompletion(provider, model));
    await core.start();
    const seen: Interaction[] = [];
    const c = core;
    c.on('interaction', (i) => {
      seen.push(i);
      c.interactions.answer(i.id, { kind: 'sampling', outcome: 'approve' });
    });
    const out = await c.tools.call(
      'mcp__era__sample',
      { question: 'What is a mooring?' },
      { preApproved: true },
    );
    expect(resultText(out.result)).toBe('model gpt-4o said: Let me look. [tool_use lookup]');
    // The person saw which tools the model may call.
    expect(seen).toHaveLength(1);
    expect(seen[0]!.kind === 'sampling' && seen[0]!.request.tools).toEqual([
      { name: 'lookup', description: 'Looks a word up' },
    ]);
    // The model got them in OpenAI's format, with the server's question.
    const body = fake.requests.find((r) => r.path === '/v1/chat/completions')!.body;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Looks a word up',
          parameters: { type: 'object', properties: { word: { type: 'string' } } },
        },
      },
    ]);
    expect(JSON.stringify(body.messages)).toContain('What is a mooring?');
  });
});
