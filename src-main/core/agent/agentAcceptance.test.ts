// The chat's acceptance (ARCHITECTURE.md, `agent/`): the real provider SDKs against local servers speaking each wire format, and a
// real server-filesystem over stdio as the tool runtime, through runChatTurn and the store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '@shared/chat';
import { startAnthropicServer } from '../../../test/fixtures/providers/anthropicServer';
import { startOllamaServer } from '../../../test/fixtures/providers/ollamaServer';
import { startOpenAIServer } from '../../../test/fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../../../test/fixtures/providers/scriptedServer';
import { MooringError } from '../errors';
import { runChatTurn } from './chatTurn';
import { ConversationStore } from './conversationStore';
import { resolveProvider } from './providers/resolveProvider';
import type { ModelCapabilities } from './providers/types';
import {
  filesystemServerEntry,
  startMcpRuntime,
  type McpTestRuntime,
} from '../../../test/helpers/mcpRuntime';
import { anthropicView, ollamaView, openaiView, type WireView } from '../../../test/helpers/wireViews';

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
// 5 KB, so the placeholder reads a round `[image: image/png, 5 KB]`.
const PICTURE = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(5 * 1024 - PNG_SIGNATURE.length, 7)]);
const PICTURE_B64 = PICTURE.toString('base64');

interface Case {
  name: string;
  start: (script: ScriptedReply[]) => Promise<FakeProviderServer>;
  view: WireView;
  spec: string;
  env: (url: string) => NodeJS.ProcessEnv;
}

const cases: Case[] = [
  {
    name: 'ollama',
    start: startOllamaServer,
    view: ollamaView,
    spec: 'ollama:llama3.2',
    env: (url) => ({ MOORING_OLLAMA_URL: url }),
  },
  {
    name: 'openai',
    start: startOpenAIServer,
    view: openaiView,
    spec: 'openai:gpt-4o',
    env: (url) => ({ MOORING_OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'sk-test' }),
  },
  {
    name: 'anthropic',
    start: startAnthropicServer,
    view: anthropicView,
    spec: 'anthropic:claude-mooring-test',
    env: (url) => ({ MOORING_ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-ant-test' }),
  },
];

describe.each(cases)('a chat turn through $name', (c) => {
  let root: string;
  let home: string;
  let fs: McpTestRuntime;
  let server: FakeProviderServer | undefined;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'mooring-agent-root-'));
    writeFileSync(join(root, 'alpha.txt'), 'first file');
    writeFileSync(join(root, 'beta.md'), '# second file');
    writeFileSync(join(root, 'picture.png'), PICTURE);
    fs = await startMcpRuntime({ command: process.execPath, args: [filesystemServerEntry(), root] });
  });
  afterAll(async () => {
    await fs?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (home) rmSync(home, { recursive: true, force: true });
  });

  async function turn(
    script: ScriptedReply[],
    opts: {
      capabilities?: ModelCapabilities;
      maxToolIterations?: number;
      signal?: AbortSignal;
      onEvent?: (e: ChatEvent) => void;
    } = {},
  ) {
    server = await c.start(script);
    home = mkdtempSync(join(tmpdir(), 'mooring-agent-home-'));
    const store = ConversationStore.forHome(home);
    const { provider, model } = resolveProvider(c.spec, {}, c.env(server.url));
    const events: ChatEvent[] = [];
    const run = runChatTurn({
      store,
      provider,
      model,
      runtime: fs,
      message: 'What is in my folder?',
      ...opts,
      onEvent: (e) => {
        events.push(e);
        opts.onEvent?.(e);
      },
    });
    return { run, events, store, server };
  }

  it('lists a directory with server-filesystem and answers', async () => {
    const { run, events, store, server } = await turn([
      { text: 'Let me look.', toolCalls: [{ name: 'list_directory', arguments: { path: root } }] },
      { text: 'Your folder holds alpha.txt, beta.md and picture.png.' },
    ]);
    const result = await run;
    expect(result.message.text).toBe('Your folder holds alpha.txt, beta.md and picture.png.');
    expect(server.requests).toHaveLength(2);
    expect(c.view.toolNames(server.requests[0]!.body)).toContain('list_directory');
    const [toolResult] = c.view.toolResults(server.requests[1]!.body);
    expect(toolResult!.text).toContain('[FILE] alpha.txt');
    expect(toolResult!.text).toContain('[FILE] beta.md');
    // The streamed text and the tool-call lifecycle reached the listener.
    const deltas = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(deltas).toBe('Let me look.Your folder holds alpha.txt, beta.md and picture.png.');
    // Each step was announced after it was saved, with its position in the conversation.
    const completed = events.flatMap((e) =>
      e.type === 'message-complete' ? [[e.index, e.message.role] as const] : [],
    );
    expect(completed).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [2, 'tool'],
      [3, 'assistant'],
    ]);
    const saved = await store.load(result.conversationId);
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(saved.warnings).toEqual([]);
  });

  it('lets the model answer without a tool that failed', async () => {
    const { run, events, server } = await turn([
      { toolCalls: [{ name: 'read_text_file', arguments: { path: join(root, 'missing.txt') } }] },
      { text: 'That file does not exist.' },
    ]);
    const result = await run;
    expect(result.message.text).toBe('That file does not exist.');
    const [toolResult] = c.view.toolResults(server.requests[1]!.body);
    expect(toolResult!.text).toMatch(/^Tool read_text_file failed: .*ENOENT/);
    expect(toolResult!.text).toContain('Answer without it');
    if (c.name === 'anthropic') expect(toolResult!.isError).toBe(true);
    expect(
      events.some(
        (e) => e.type === 'message-complete' && e.message.role === 'tool' && e.message.status === 'failed',
      ),
    ).toBe(true);
  });

  it('stops at the tool iteration cap with a visible note', async () => {
    const callsBefore = fs.calls.length;
    const again: ScriptedReply = { toolCalls: [{ name: 'list_directory', arguments: { path: root } }] };
    const { run, events, store, server } = await turn([again, again, again, again], { maxToolIterations: 3 });
    const result = await run;
    expect(server.requests).toHaveLength(4);
    expect(server.remaining()).toBe(0);
    expect(fs.calls.length - callsBefore).toBe(3);
    const notes = events.flatMap((e) => (e.type === 'note' ? [e.text] : []));
    expect(notes).toEqual([expect.stringContaining('Stopped after 3 tool iterations')]);
    const saved = await store.load(result.conversationId);
    const statuses = saved.messages.flatMap((m) => (m.role === 'tool' ? [m.status] : []));
    expect(statuses).toEqual(['done', 'done', 'done', 'refused']);
    expect(saved.messages.at(-1)!.role).toBe('note');
  });

  it('drives a model without native tools through the text protocol, correcting one malformed line', async () => {
    const { run, events, server } = await turn(
      [
        { text: 'MCP: list_directory {"path": oops}' },
        { text: `I will look.\nMCP: list_directory ${JSON.stringify({ path: root })}` },
        { text: 'You have alpha.txt and beta.md.' },
      ],
      { capabilities: { tools: false, vision: false } },
    );
    const result = await run;
    expect(result.message.text).toBe('You have alpha.txt and beta.md.');
    const [first, second, third] = server.requests.map((r) => r.body);
    expect(c.view.toolNames(first)).toEqual([]);
    expect(c.view.system(first)).toContain('MCP: <tool_name> <arguments as one JSON object>');
    expect(c.view.system(first)).toContain('list_directory');
    expect(c.view.userTexts(second).at(-1)).toContain('could not be used: the arguments are not valid JSON');
    expect(c.view.userTexts(third).at(-1)).toContain('Result of list_directory:');
    expect(c.view.userTexts(third).at(-1)).toContain('[FILE] alpha.txt');
    // Protocol lines are not streamed to the person as prose.
    const shown = events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
    expect(shown).not.toContain('MCP: list_directory {"path": "');
    expect(shown).toContain('I will look.');
  });

  it('gives up on a turn after a second malformed protocol line, without crashing', async () => {
    const { run, events, server } = await turn(
      [{ text: 'MCP: no_such_tool {}' }, { text: 'MCP: list_directory [1, 2]' }],
      { capabilities: { tools: false, vision: false } },
    );
    const result = await run;
    expect(server.requests).toHaveLength(2);
    expect(result.message.text).toBe('MCP: list_directory [1, 2]');
    expect(events.filter((e) => e.type === 'note')).toEqual([
      expect.objectContaining({ level: 'warning', text: expect.stringContaining('malformed again') }),
    ]);
  });

  it('sends a vision model the image result as a native image block', async () => {
    const { run, server } = await turn(
      [
        { toolCalls: [{ name: 'read_media_file', arguments: { path: join(root, 'picture.png') } }] },
        { text: 'A picture.' },
      ],
      { capabilities: { tools: true, vision: true } },
    );
    await run;
    const body = server.requests[1]!.body;
    expect(c.view.images(body)).toEqual([PICTURE_B64]);
    for (const r of c.view.toolResults(body)) expect(r.text).not.toContain(PICTURE_B64.slice(0, 64));
  });

  it('sends a non-vision model a placeholder, never base64 text', async () => {
    const { run, server } = await turn(
      [
        { toolCalls: [{ name: 'read_media_file', arguments: { path: join(root, 'picture.png') } }] },
        { text: 'An image.' },
      ],
      { capabilities: { tools: true, vision: false } },
    );
    await run;
    const body = server.requests[1]!.body;
    expect(c.view.images(body)).toEqual([]);
    expect(c.view.toolResults(body)[0]!.text).toContain('[image: image/png, 5 KB]');
    expect(JSON.stringify(body)).not.toContain(PICTURE_B64.slice(0, 64));
  });

  it('stops the provider request when the turn is cancelled mid-stream', async () => {
    const controller = new AbortController();
    const { run, store, server } = await turn([{ text: 'Thinking about it for a long time', hang: true }], {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'text-delta') controller.abort();
      },
    });
    const closed = server.nextClientAbort();
    const err = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MooringError);
    expect((err as MooringError).code).toBe('cancelled');
    await closed;
    expect(server.clientAborts).toBe(1);
    const [conversation] = await store.list();
    const saved = await store.load(conversation!.id);
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'note']);
    expect(saved.messages[1]).toMatchObject({ role: 'assistant', cancelled: true });
  });
});

describe('a chat turn when the provider is down', () => {
  it('reports connect_failed with the hint and keeps the failure in the conversation', async () => {
    const home = mkdtempSync(join(tmpdir(), 'mooring-agent-home-'));
    try {
      const down = await startOllamaServer([]);
      const url = down.url;
      await down.close();
      const store = ConversationStore.forHome(home);
      const { provider, model } = resolveProvider('ollama:llama3.2', {}, { MOORING_OLLAMA_URL: url });
      const events: ChatEvent[] = [];
      const err = await runChatTurn({
        store,
        provider,
        model,
        runtime: { tools: () => [], execute: async () => ({ status: 'failed', text: 'unused' }) },
        message: 'hello?',
        onEvent: (e) => events.push(e),
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'connect_failed', message: `Ollama is not reachable at ${url}` });
      expect(events.at(-1)).toMatchObject({
        type: 'error',
        error: { code: 'connect_failed', hint: expect.any(String) },
      });
      const [c] = await store.list();
      const saved = await store.load(c!.id);
      expect(saved.messages.map((m) => m.role)).toEqual(['user', 'note']);
      expect(saved.messages[1]).toMatchObject({ text: expect.stringContaining('Start Ollama') });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
