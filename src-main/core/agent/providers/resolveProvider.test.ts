import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startAnthropicServer } from '../../../../test/fixtures/providers/anthropicServer';
import { startOllamaServer } from '../../../../test/fixtures/providers/ollamaServer';
import { startOpenAIServer } from '../../../../test/fixtures/providers/openaiServer';
import { lookupCapabilities } from './modelCapabilities';
import { DEFAULT_PROVIDER_URLS } from '@shared/providers';
import { OllamaProvider } from './ollamaProvider';
import { parseModelSpec, resolveProvider } from './resolveProvider';

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('parseModelSpec', () => {
  it('splits at the first colon only', () => {
    expect(parseModelSpec('ollama:llama3.2:3b')).toEqual({ provider: 'ollama', model: 'llama3.2:3b' });
    expect(parseModelSpec('anthropic:claude-x')).toEqual({ provider: 'anthropic', model: 'claude-x' });
  });
  it.each(['llama3.2', 'gemini:pro', 'openai:', ':gpt-4o'])('rejects %s with a usage hint', (spec) => {
    expect(() => parseModelSpec(spec)).toThrow(
      expect.objectContaining({ code: 'usage', hint: expect.stringContaining('ollama:NAME') }),
    );
  });
});

describe('resolveProvider', () => {
  it('defaults Ollama to 127.0.0.1:11434 and prefers settings over the environment', () => {
    const bare = resolveProvider('ollama:llama3.2', {}, {});
    expect((bare.provider as OllamaProvider).baseUrl).toBe(DEFAULT_PROVIDER_URLS.ollama);
    expect(DEFAULT_PROVIDER_URLS.ollama).toBe('http://127.0.0.1:11434');
    const env = { MOORING_OLLAMA_URL: 'http://127.0.0.1:1/' };
    expect((resolveProvider('ollama:m', {}, env).provider as OllamaProvider).baseUrl).toBe(
      'http://127.0.0.1:1',
    );
    const both = resolveProvider('ollama:m', { ollama: { baseUrl: 'http://127.0.0.1:2' } }, env);
    expect((both.provider as OllamaProvider).baseUrl).toBe('http://127.0.0.1:2');
  });

  it('asks for a key where the endpoint needs one', () => {
    expect(() => resolveProvider('openai:gpt-4o', {}, {})).toThrow(
      expect.objectContaining({ code: 'auth_required' }),
    );
    expect(() => resolveProvider('anthropic:claude-x', {}, {})).toThrow(
      expect.objectContaining({ code: 'auth_required', hint: expect.stringContaining('ANTHROPIC_API_KEY') }),
    );
    // A local OpenAI-compatible server needs none.
    expect(() =>
      resolveProvider('openai:local', {}, { MOORING_OPENAI_BASE_URL: 'http://127.0.0.1:1234/v1' }),
    ).not.toThrow();
  });

  it('says Ollama is not reachable, and where to fix it', async () => {
    const port = await closedPort();
    const { provider, model } = resolveProvider(
      'ollama:llama3.2',
      {},
      { MOORING_OLLAMA_URL: `http://127.0.0.1:${port}` },
    );
    const events = provider.stream({
      model,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
    });
    await expect(
      (async () => {
        for await (const _ of events) void _;
      })(),
    ).rejects.toMatchObject({
      code: 'connect_failed',
      message: `Ollama is not reachable at http://127.0.0.1:${port}`,
      hint: 'Start Ollama, or choose another provider in Settings > Models',
    });
  });

  // What the Models screen's Check and a chat turn show when nothing listens at the configured address:
  // each SDK's own connection error, mapped to the same answer with what to do.
  it.each([
    [
      'openai:gpt-4o',
      'MOORING_OPENAI_BASE_URL',
      '/v1',
      'The OpenAI-compatible endpoint',
      /correct the Base URL/,
    ],
    [
      'anthropic:claude-x',
      'MOORING_ANTHROPIC_BASE_URL',
      '',
      'Anthropic',
      /the Base URL in Settings > Models/,
    ],
  ])('says %s is not reachable, and what to do', async (spec, variable, path, label, hint) => {
    const url = `http://127.0.0.1:${await closedPort()}${path}`;
    const { provider } = resolveProvider(
      spec,
      {},
      { [variable]: url, OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
    );
    await expect(provider.listModels!()).rejects.toMatchObject({
      code: 'connect_failed',
      message: `${label} is not reachable at ${url}`,
      hint: expect.stringMatching(hint),
    });
  });

  it('lists models through each SDK', async () => {
    const servers = await Promise.all([
      startOllamaServer([]),
      startOpenAIServer([]),
      startAnthropicServer([]),
    ]);
    try {
      const [o, a, c] = servers;
      const env = {
        MOORING_OLLAMA_URL: o!.url,
        MOORING_OPENAI_BASE_URL: `${a!.url}/v1`,
        OPENAI_API_KEY: 'k',
        MOORING_ANTHROPIC_BASE_URL: c!.url,
        ANTHROPIC_API_KEY: 'k',
      };
      expect(await resolveProvider('ollama:x', {}, env).provider.listModels!()).toEqual([
        { name: 'llama3.2:latest' },
      ]);
      expect(await resolveProvider('openai:x', {}, env).provider.listModels!()).toEqual([{ name: 'gpt-4o' }]);
      expect(await resolveProvider('anthropic:x', {}, env).provider.listModels!()).toEqual([
        { name: 'claude-sonnet-4-5' },
      ]);
      // @anthropic-ai/sdk 1.x sends the key as a bearer token; older lines used x-api-key.
      const anthropicAuth = c!.requests[0]!.headers;
      expect([anthropicAuth['x-api-key'], anthropicAuth.authorization]).toContain(
        anthropicAuth['x-api-key'] ? 'k' : 'Bearer k',
      );
      expect(anthropicAuth['anthropic-version']).toBeTruthy();
      expect(a!.requests[0]!.headers.authorization).toBe('Bearer k');
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});

describe('lookupCapabilities', () => {
  it('knows common models and lets overrides patch them', () => {
    expect(lookupCapabilities('ollama', 'llama3.2:3b')).toEqual({ tools: true, vision: false });
    expect(lookupCapabilities('ollama', 'llava:7b')).toEqual({ tools: false, vision: true });
    expect(lookupCapabilities('ollama', 'some-new-model')).toEqual({ tools: false, vision: false });
    expect(lookupCapabilities('openai', 'gpt-4o-mini')).toEqual({ tools: true, vision: true });
    expect(lookupCapabilities('anthropic', 'claude-opus-4')).toEqual({ tools: true, vision: true });
    expect(lookupCapabilities('ollama', 'some-new-model', { 'some-new-model': { tools: true } })).toEqual({
      tools: true,
      vision: false,
    });
    expect(lookupCapabilities('ollama', 'llava:7b', { 'ollama:llava:7b': { vision: false } })).toEqual({
      tools: false,
      vision: false,
    });
  });
});
