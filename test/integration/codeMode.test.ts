// Code mode on a real core (docs/code-mode.md): a scripted model (the OpenAI wire format) writes one
// program over the typed API of real reference servers; each call the program makes passes the same gate
// as a direct call (a destructive tool asks; a denial is an exception in the program), a tool the
// conversation does not have cannot be called, a hostile program ends with a clear error and the next turn
// runs, and Stop cancels a program waiting on a call.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import type { ChatEvent, ToolChatMessage } from '@shared/chat';
import type { ToolCallEvent } from '@shared/toolCall';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer, ScriptedReply } from '../fixtures/providers/scriptedServer';
import { EVERYTHING, FILESYSTEM, tempDir } from '../helpers/servers';
import { openaiView } from '../helpers/wireViews';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';

const SPEC = 'openai:gpt-4o';
const models: FakeProviderServer[] = [];
let core: MooringCore;
let root: string;

beforeAll(async () => {
  root = tempDir('mooring-code-mode-files-');
  for (let i = 1; i <= 6; i++) writeFileSync(join(root, `file${i}.txt`), 'x'.repeat(i * 100));
  const home = tempDir('mooring-code-mode-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [
        { name: 'fs', command: 'node', args: [FILESYSTEM, root] },
        { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] },
      ],
    }),
  );
  writeFileSync(
    join(home, 'settings.json'),
    JSON.stringify({
      deferredToolThreshold: { tools: 500, tokens: 1_000_000 },
      toolSets: [{ name: 'files', tools: ['mcp__fs__list_directory', 'mcp__fs__get_file_info'] }],
    }),
  );
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { OPENAI_API_KEY: 'sk-test', MOORING_NO_SHELL_PATH: '1' },
  });
  await core.start();
}, 60_000);

afterAll(async () => {
  await Promise.all(models.map((m) => m.close()));
  await core?.close();
});

/** One foreground turn in code mode (as `mooring chat --code-mode` runs it) against a scripted model. */
async function turn(
  script: ScriptedReply[],
  opts: { toolSet?: string; signal?: AbortSignal; preApproved?: boolean } = {},
) {
  const model = await startOpenAIServer(script);
  models.push(model);
  await core.models.save({ defaultModel: SPEC, baseUrls: { openai: `${model.url}/v1` } });
  const { run } = await core.chat.prepareTurn({
    model: SPEC,
    interactive: true,
    codeMode: true,
    ...(opts.preApproved ? { preApproved: true } : {}),
    ...(opts.toolSet ? { toolSet: opts.toolSet } : {}),
  });
  const events: ChatEvent[] = [];
  const result = await run({
    message: 'Please help',
    onEvent: (e) => events.push(e),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const saved = await core.conversations.load(result.conversationId);
  const step = saved.messages.find((m): m is ToolChatMessage => m.role === 'tool' && m.name === 'run_code');
  return { result, model, step, events };
}

const program = (code: string): ScriptedReply => ({ toolCalls: [{ name: 'run_code', arguments: { code } }] });

describe('code mode', () => {
  it('one program lists, reads and sums; the model gets only what it printed and returned', async () => {
    const { model, step } = await turn([
      program(`
        const listing = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
        const names = listing.content.split('\\n').filter((l) => l.startsWith('[FILE]')).map((l) => l.slice(7));
        const sizes = [];
        for (const name of names) {
          const info = await tools.mcp__fs__get_file_info({ path: ${JSON.stringify(root)} + '/' + name });
          sizes.push({ name, size: Number(/size: (\\d+)/.exec(info.content)[1]) });
        }
        sizes.sort((a, b) => b.size - a.size);
        print('files:', names.length);
        return sizes.slice(0, 3).map((s) => s.name);`),
      { text: 'The largest are file6, file5 and file4.' },
    ]);
    // The model was offered run_code, typed from the servers' schemas.
    const first = model.requests[0]!.body as { tools: { function: { name: string; description: string } }[] };
    const runCode = first.tools.find((t) => t.function.name === 'run_code')!;
    // run_code stands in for the server tools: each is declared once, in its description.
    expect(first.tools.map((t) => t.function.name)).not.toContain('mcp__fs__list_directory');
    // Its output type comes from the tool's outputSchema: the program reads `.content`.
    expect(runCode.function.description).toContain(
      'mcp__fs__list_directory(args: { path: string }): Promise<{ content: string }>',
    );
    expect(runCode.function.description).toContain('declare function print');
    const [result] = openaiView.toolResults(model.requests[1]!.body);
    expect(result!.text).toContain('files: 6');
    expect(result!.text).toContain('["file6.txt","file5.txt","file4.txt"]');
    expect(result!.text).not.toContain('[FILE]');
    expect(step).toMatchObject({
      status: 'done',
      program: { returned: '["file6.txt","file5.txt","file4.txt"]' },
    });
    expect(step!.program!.calls).toHaveLength(7);
    expect(step!.program!.calls[0]).toMatchObject({
      name: 'mcp__fs__list_directory',
      status: 'done',
      target: { server: 'fs', tool: 'list_directory' },
    });
  });

  it('a destructive call asks, showing the call; a denial is an exception the program handles', async () => {
    const asked = new Promise<ApprovalRequest>((resolve) =>
      core.approvals.once('requested', (r) => {
        core.approvals.answer(r.id, { outcome: 'deny', decidedBy: 'user:test' });
        resolve(r);
      }),
    );
    const file = join(root, 'denied.txt');
    const { step, model } = await turn([
      program(`
        try {
          await tools.mcp__fs__write_file({ path: ${JSON.stringify(file)}, content: 'from a program' });
          return 'written';
        } catch (e) {
          return 'caught: ' + e.message;
        }`),
      { text: 'It was refused.' },
    ]);
    const request = await asked;
    expect(request).toMatchObject({ server: 'fs', tool: 'write_file' });
    // The dialog is shown the program and which call of it this is.
    expect(request.program).toEqual({ code: expect.stringContaining('tools.mcp__fs__write_file('), call: 1 });
    expect(readdirSync(root)).not.toContain('denied.txt');
    expect(step!.program!.returned).toMatch(/^caught: mcp__fs__write_file was refused: You denied the call/);
    expect(step!.program!.calls[0]).toMatchObject({ name: 'mcp__fs__write_file', status: 'refused' });
    expect(openaiView.toolResults(model.requests[1]!.body)[0]!.text).toContain('caught:');
  });

  it('a program cannot call a tool the conversation does not have', async () => {
    const { step, model } = await turn(
      [
        program(`
          const seen = Object.keys(tools);
          let outcome;
          try { await tools.mcp__everything__echo({ message: 'hi' }); outcome = 'called'; }
          catch (e) { outcome = e.name; }
          return { seen, outcome };`),
        { text: 'Only the tool set.' },
      ],
      { toolSet: 'files' },
    );
    const first = model.requests[0]!.body as { tools: { function: { name: string; description: string } }[] };
    expect(first.tools.find((t) => t.function.name === 'run_code')!.function.description).not.toContain(
      'echo',
    );
    expect(JSON.parse(step!.program!.returned!)).toEqual({
      seen: ['mcp__fs__list_directory', 'mcp__fs__get_file_info'],
      outcome: 'TypeError',
    });
    expect(step!.program!.calls).toEqual([]);
  });

  it('a hostile program ends with a clear error, and the next turn runs', async () => {
    const { step, model } = await turn([program(`for (;;) {}`), { text: 'It looped.' }]);
    expect(step).toMatchObject({ status: 'failed', program: { error: { kind: 'cpu_limit' } } });
    expect(openaiView.toolResults(model.requests[1]!.body)[0]!.text).toContain('CPU time limit');
    const next = await turn([program(`return typeof process + ' ' + typeof require`), { text: 'Done.' }]);
    expect(next.step!.program!.returned).toBe('undefined undefined');
  });

  it('a scheduled run in code mode: read-only calls run, the rest is refused inside the program', async () => {
    const model = await startOpenAIServer([
      program(`
        const listed = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
        let write;
        try { await tools.mcp__fs__write_file({ path: ${JSON.stringify(join(root, 'night.txt'))}, content: 'x' }); write = 'written'; }
        catch (e) { write = e.message; }
        return { listed: listed.content.includes('file1.txt'), write };`),
      { text: 'Nightly done.' },
    ]);
    models.push(model);
    await core.models.save({ defaultModel: SPEC, baseUrls: { openai: `${model.url}/v1` } });
    const result = await core.chat.runUnattended({
      model: SPEC,
      allow: [],
      workspace: null,
      prompt: 'Nightly check',
      title: 'Nightly',
      who: 'schedule "Nightly"',
      codeMode: true,
      signal: new AbortController().signal,
    });
    const saved = await core.conversations.load(result.conversationId);
    const step = saved.messages.find((m): m is ToolChatMessage => m.role === 'tool' && m.name === 'run_code');
    const returned = JSON.parse(step!.program!.returned!) as { listed: boolean; write: string };
    expect(returned.listed).toBe(true);
    expect(returned.write).toMatch(/^mcp__fs__write_file was refused: schedule "Nightly" runs unattended/);
    expect(readdirSync(root)).not.toContain('night.txt');
  });

  it('Stop cancels a program waiting on a call, and its call', async () => {
    const ac = new AbortController();
    const running = (e: ToolCallEvent) => {
      if (e.phase === 'running' && e.tool === 'trigger-long-running-operation') ac.abort();
    };
    core.tools.on('toolCall', running);
    try {
      await expect(
        turn(
          [
            program(
              `await tools.mcp__everything__trigger_long_running_operation({ duration: 30, steps: 3 }); return 'finished';`,
            ),
            { text: 'never' },
          ],
          { signal: ac.signal, preApproved: true },
        ),
      ).rejects.toThrow(/cancel/i);
    } finally {
      core.tools.off('toolCall', running);
    }
  });
});
