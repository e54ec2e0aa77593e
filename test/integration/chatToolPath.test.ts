// The chat's tool calls on a real core (ARCHITECTURE.md, "The path of one tool call"): real reference
// servers, the real provider SDKs against local servers speaking each wire format with scripted replies,
// the conversation file on disk, and the one tool-call lifecycle stream. What the model was sent is read
// back from the recorded requests.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import type { ChatEvent } from '@shared/chat';
import type { ServerConfigInput } from '@shared/config';
import type { ToolCallEvent } from '@shared/toolCall';
import { startAnthropicServer } from '../fixtures/providers/anthropicServer';
import { startOllamaServer } from '../fixtures/providers/ollamaServer';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../fixtures/providers/scriptedServer';
import { EVERYTHING, FILESYSTEM, MEMORY, tempDir } from '../helpers/servers';
import { anthropicView, ollamaView, openaiView, type WireView } from '../helpers/wireViews';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const PICTURE = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(3 * 1024, 5)]);
const PICTURE_B64 = PICTURE.toString('base64');

interface Wire {
  name: 'openai' | 'anthropic' | 'ollama';
  start: (script: ScriptedReply[]) => Promise<FakeProviderServer>;
  view: WireView;
  /** A model each provider's table marks as taking tools and images. */
  spec: string;
  baseUrl: (url: string) => string;
}

const WIRES: Wire[] = [
  {
    name: 'openai',
    start: startOpenAIServer,
    view: openaiView,
    spec: 'openai:gpt-4o',
    baseUrl: (u) => `${u}/v1`,
  },
  {
    name: 'anthropic',
    start: startAnthropicServer,
    view: anthropicView,
    spec: 'anthropic:claude-mooring-test',
    baseUrl: (u) => u,
  },
  {
    name: 'ollama',
    start: startOllamaServer,
    view: ollamaView,
    spec: 'ollama:qwen2.5vl',
    baseUrl: (u) => u,
  },
];

const models: FakeProviderServer[] = [];
const cores: MooringCore[] = [];
afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await Promise.all(cores.map((c) => c.close()));
});

/** A core on a fresh home with these servers written to its file (every tool as the server lists it). */
async function openCore(servers: ServerConfigInput[], settings: object = {}): Promise<MooringCore> {
  const home = tempDir('mooring-chat-path-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test', MOORING_NO_SHELL_PATH: '1' },
  });
  cores.push(core);
  await core.start();
  return core;
}

/** One foreground turn (as `mooring chat` runs it) against a scripted model of this wire format. */
async function turn(
  core: MooringCore,
  wire: Wire,
  script: ScriptedReply[],
  opts: { message?: string; conversationId?: string } = {},
) {
  const model = await wire.start(script);
  models.push(model);
  await core.models.save({ defaultModel: wire.spec, baseUrls: { [wire.name]: wire.baseUrl(model.url) } });
  const run = (await core.chat.prepareTurn({ model: wire.spec, interactive: true })).run;
  const events: ChatEvent[] = [];
  const phases: ToolCallEvent[] = [];
  const result = await run({
    message: opts.message ?? 'Please help',
    ...(opts.conversationId ? { conversationId: opts.conversationId } : {}),
    onEvent: (e) => events.push(e),
    onPhase: (e) => phases.push(e),
  });
  return { result, model, events, phases };
}

const answerNext = (core: MooringCore, answer: (r: ApprovalRequest) => unknown) =>
  new Promise<ApprovalRequest>((resolve) =>
    core.approvals.once('requested', (r) => {
      core.approvals.answer(r.id, answer(r));
      resolve(r);
    }),
  );

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the chat calls tools through the core', () => {
  let core: MooringCore;
  let root: string;

  beforeAll(async () => {
    root = tempDir('mooring-chat-path-files-');
    writeFileSync(join(root, 'alpha.txt'), 'first file');
    writeFileSync(join(root, 'picture.png'), PICTURE);
    core = await openCore(
      [
        { name: 'fs', command: 'node', args: [FILESYSTEM, root] },
        { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
      ],
      // Direct mode: the model sees every tool's schema.
      { deferredToolThreshold: { tools: 500, tokens: 1_000_000 } },
    );
  }, 60_000);

  describe.each(WIRES)('through $name', (wire) => {
    it('arguments the user edited are what ran, and the saved step, the lifecycle and the next request say so', async () => {
      const file = join(root, `edited-${wire.name}.txt`);
      const asked = answerNext(core, (r) => ({
        outcome: 'approve',
        decidedBy: 'user:test',
        arguments: { ...r.arguments, content: 'edited by the user' },
      }));
      const { result, model, phases } = await turn(core, wire, [
        {
          toolCalls: [{ name: 'mcp__fs__write_file', arguments: { path: file, content: 'from the model' } }],
        },
        { text: 'Written.' },
      ]);
      expect(readFileSync(file, 'utf8')).toBe('edited by the user');
      // The dialog can name the conversation by its title.
      expect((await asked).conversationId).toBe(result.conversationId);
      const edited = { path: file, content: 'edited by the user' };
      const saved = await core.conversations.load(result.conversationId);
      expect(saved.messages.find((m) => m.role === 'tool')).toMatchObject({
        status: 'done',
        editedArguments: edited,
        target: { server: 'fs', tool: 'write_file' },
      });
      expect(phases.find((e) => e.phase === 'running')?.editedArguments).toEqual(edited);
      const [toolResult] = wire.view.toolResults(model.requests[1]!.body);
      expect(toolResult!.text).toContain('the user edited your arguments before approving');
      expect(toolResult!.text).toContain('"content":"edited by the user"');
    });

    it('a denied call reaches the model as one plain sentence', async () => {
      answerNext(core, () => ({ outcome: 'deny', decidedBy: 'user:test' }));
      const { model } = await turn(core, wire, [
        {
          toolCalls: [
            { name: 'mcp__fs__write_file', arguments: { path: join(root, 'no.txt'), content: 'x' } },
          ],
        },
        { text: 'Not written.' },
      ]);
      const [toolResult] = wire.view.toolResults(model.requests[1]!.body);
      expect(toolResult!.text).toMatch(/^Tool mcp__fs__write_file was refused: You denied the call/);
      expect(count(toolResult!.text, 'refused')).toBe(1);
      expect(count(toolResult!.text.toLowerCase(), 'answer without it')).toBe(1);
    });

    it('a unique bare tool name resolves and runs', async () => {
      const { result, model } = await turn(core, wire, [
        { toolCalls: [{ name: 'list_directory', arguments: { path: root } }] },
        { text: 'Listed.' },
      ]);
      const [toolResult] = wire.view.toolResults(model.requests[1]!.body);
      expect(toolResult!.text).toContain('[FILE] alpha.txt');
      const saved = await core.conversations.load(result.conversationId);
      expect(saved.messages.find((m) => m.role === 'tool')).toMatchObject({
        status: 'done',
        name: 'list_directory',
        target: { server: 'fs', tool: 'list_directory' },
      });
    });

    it('an image from a tool reaches a vision model in the same turn as an image part, once', async () => {
      const { model } = await turn(core, wire, [
        { toolCalls: [{ name: 'mcp__fs__read_media_file', arguments: { path: join(root, 'picture.png') } }] },
        { text: 'A picture.' },
      ]);
      const body = model.requests[1]!.body;
      expect(wire.view.images(body)).toEqual([PICTURE_B64]);
      // server-filesystem repeats the image in structuredContent: it must not reach the model as text.
      for (const r of wire.view.toolResults(body)) expect(r.text).not.toContain(PICTURE_B64.slice(0, 40));
    });
  });

  it("runs the call in the catalog of the conversation's provider, not Anthropic's", async () => {
    // Anthropic refuses property names with spaces; OpenAI takes them. The tool must run for OpenAI.
    const { RUN_TS, fixturePath } = await import('../helpers/servers');
    const own = await openCore([
      {
        name: 'nasty',
        command: 'node',
        args: [RUN_TS, fixturePath('nastySchemas.ts')],
        policy: 'trust-all',
      },
    ]);
    const { result, model } = await turn(own, WIRES[0]!, [
      { toolCalls: [{ name: 'mcp__nasty__spaced_props', arguments: { 'file path': '/x' } }] },
      { text: 'Ran it.' },
    ]);
    const saved = await own.conversations.load(result.conversationId);
    expect(saved.messages.find((m) => m.role === 'tool')).toMatchObject({ status: 'done' });
    expect(openaiView.toolResults(model.requests[1]!.body)[0]!.text).toContain('"file path":"/x"');
  });
});

describe('deferred mode', () => {
  it.each(WIRES)('tells $name which tools exist, the same text on every turn', async (wire) => {
    const root = tempDir('mooring-chat-deferred-');
    // Four reference servers are more than the default thresholds (40 tools, 8,000 tokens).
    const core = await openCore([
      { name: 'fs', command: 'node', args: [FILESYSTEM, root] },
      { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
      { name: 'memory', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(root, 'm.jsonl') } },
      { name: 'notes', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: join(root, 'n.jsonl') } },
    ]);
    const first = await turn(core, wire, [{ text: 'Hello.' }]);
    const second = await turn(core, wire, [{ text: 'Again.' }], {
      conversationId: first.result.conversationId,
    });
    const body = first.model.requests[0]!.body;
    expect(wire.view.toolNames(body)).toEqual(['tool_search']);
    const system = wire.view.system(body);
    expect(system).toContain('tool_search');
    expect(system).toContain('mcp__fs__: ');
    expect(system).toContain('read_text_file');
    expect(system).toContain('mcp__notes__: ');
    expect(wire.view.system(second.model.requests[0]!.body)).toBe(system);
    // The chat says once that the tools load on demand, and where the limit is changed.
    const notes = (events: ChatEvent[]) =>
      events.flatMap((e) => (e.type === 'note' && /load on demand/.test(e.text) ? [e.text] : []));
    expect(notes(first.events)).toEqual([
      expect.stringMatching(
        /^\d+ tools load on demand \(more than 40 tools or 8000 tokens of them\).*Settings > Limits/,
      ),
    ]);
    expect(notes(second.events)).toEqual([]);
  });
});
