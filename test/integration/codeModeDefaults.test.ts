// Code mode's switches on a real core (docs/code-mode.md, "The switch"): a model set in Settings > Models to
// start in code mode starts each new conversation in it (the app's chat and `mooring chat` alike), the
// conversation's own switch still turns it off, and a conversation made before keeps what it had; a
// schedule saved with code mode runs its program under the unattended policy, where a call that would ask
// is refused and the program gets the refusal as an exception.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolChatMessage } from '@shared/chat';
import type { TurnState } from '@shared/wire';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { FILESYSTEM, tempDir } from '../helpers/servers';
import { openaiView } from '../helpers/wireViews';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

const SPEC = 'openai:gpt-4o';
let core: MooringCore;
let model: FakeProviderServer;
let root: string;
const turns: TurnState[] = [];
let wake: (() => void)[] = [];

// The model writes a program when it is offered run_code, and answers in words otherwise (and after a
// program). The schedule's program also tries a write, which would ask; the chat's only lists.
const program = (root: string, write: boolean) => `
  const listed = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
  let write = 'not tried';
  ${
    write
      ? `try { await tools.mcp__fs__write_file({ path: ${JSON.stringify(join(root, 'night.txt'))}, content: 'x' }); write = 'written'; }
  catch (e) { write = e.message; }`
      : ''
  }
  return { listed: listed.content.includes('a.txt'), write };`;

beforeAll(async () => {
  root = tempDir('mooring-code-defaults-files-');
  writeFileSync(join(root, 'a.txt'), 'alpha');
  const home = tempDir('mooring-code-defaults-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'fs', command: 'node', args: [FILESYSTEM, root] }] }),
  );
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({ titlesFromModel: false, deferredToolThreshold: { tools: 500, tokens: 1_000_000 } }),
  );
  model = await startOpenAIServer((body: { messages: { role: string; content: unknown }[] }) => {
    const last = body.messages.at(-1)!;
    if (last.role !== 'user' || !openaiView.toolNames(body).includes('run_code')) return { text: 'Done.' };
    const code = program(root, JSON.stringify(last.content).includes('Nightly'));
    return { toolCalls: [{ name: 'run_code', arguments: { code } }] };
  });
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-test', MOORING_NO_SHELL_PATH: '1' },
  });
  core.chat.on('turn', (t) => {
    turns.push(t);
    const w = wake;
    wake = [];
    w.forEach((f) => f());
  });
  await core.start();
  await core.models.save({ defaultModel: SPEC, baseUrls: { openai: `${model.url}/v1` } });
}, 60_000);

afterAll(async () => {
  await core?.close();
  await model?.close();
});

/** A turn through the app's path (chat.send); resolves with its conversation and what the model was offered. */
async function send(input: { conversationId?: string; codeMode?: boolean } = {}) {
  const from = turns.length;
  const before = model.requests.length;
  const { conversationId } = await core.chat.send({ text: 'List the folder', ...input });
  await new Promise<void>((resolve) => {
    const check = () =>
      turns.slice(from).some((t) => t.conversationId === conversationId && !t.running)
        ? resolve()
        : void wake.push(check);
    check();
  });
  const first = model.requests.slice(before).find((r) => r.method === 'POST')!;
  return { conversationId, offered: openaiView.toolNames(first.body) };
}

describe('code mode by model', () => {
  it('a new conversation with a model set to start in code mode starts in it; the switch still overrides', async () => {
    const before = await send();
    expect(before.offered).not.toContain('run_code');

    await core.models.save({
      defaultModel: SPEC,
      baseUrls: { openai: `${model.url}/v1` },
      codeModeModels: [SPEC],
    });
    expect((await core.models.view()).codeModeModels).toEqual([SPEC]);
    const fresh = await send();
    expect(fresh.offered).toContain('run_code');
    expect(await core.models.codeModeOf(fresh.conversationId)).toBe(true);
    // A conversation made before the setting keeps what it had.
    expect((await send({ conversationId: before.conversationId })).offered).not.toContain('run_code');
    // The conversation's own switch wins, when it starts and after.
    const off = await send({ codeMode: false });
    expect(off.offered).not.toContain('run_code');
    expect((await send({ conversationId: off.conversationId })).offered).not.toContain('run_code');
    await core.models.setCodeMode(fresh.conversationId, false);
    expect((await send({ conversationId: fresh.conversationId })).offered).not.toContain('run_code');

    // `mooring chat` starts as the model does, and --no-code-mode (codeMode: false) turns it off.
    for (const [codeMode, offered] of [
      [undefined, true],
      [false, false],
    ] as const) {
      const before = model.requests.length;
      const turn = await core.chat.prepareTurn({
        model: SPEC,
        interactive: false,
        ...(codeMode !== undefined ? { codeMode } : {}),
      });
      await turn.run({ message: 'List the folder' });
      const names = openaiView.toolNames(model.requests.slice(before).find((r) => r.method === 'POST')!.body);
      expect(names.includes('run_code')).toBe(offered);
    }
    await core.models.save({
      defaultModel: SPEC,
      baseUrls: { openai: `${model.url}/v1` },
      codeModeModels: [],
    });
    expect((await send()).offered).not.toContain('run_code');
  });

  it('a schedule saved with code mode runs its program unattended: a call that would ask is refused in it', async () => {
    await core.schedules.add({
      name: 'Nightly',
      prompt: 'Nightly: list the folder',
      model: SPEC,
      codeMode: true,
      allow: [],
      workspace: null,
      when: { kind: 'every', everyMs: 24 * 3_600_000 },
      missed: 'skip',
      timeLimitS: 120,
      notify: false,
      paused: true,
    });
    const run = await core.schedules.runNow('Nightly', { wait: true });
    expect(run.conversationId).toBeDefined();
    const saved = await core.conversations.load(run.conversationId!);
    const step = saved.messages.find((m): m is ToolChatMessage => m.role === 'tool' && m.name === 'run_code');
    expect(step?.status).toBe('done');
    const returned = JSON.parse(step!.program!.returned!) as { listed: boolean; write: string };
    expect(returned.listed).toBe(true);
    expect(returned.write).toMatch(/^mcp__fs__write_file was refused: schedule "Nightly" runs unattended/);
    expect(step!.program!.calls.map((c) => c.status)).toEqual(['done', 'refused']);
    expect(readdirSync(root)).not.toContain('night.txt');
  });
});
