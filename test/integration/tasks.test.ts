// Tool calls that run as tasks (docs/tasks-and-resources.md, "Tasks"; MCP 2025-11-25 "Tasks") through the whole core,
// against server-everything's `simulate-research-query` (taskSupport "required"): its status on the call's
// lifecycle, the result, cancel, and a task that outlives a restart of Mooring (over Streamable HTTP, whose
// session the task is bound to) delivered into its conversation.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ToolCallEvent } from '@shared/toolCall';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { getTask } from '../../src-main/core/tasks/taskProtocol';
import { EVERYTHING, startEverythingHttp, tempDir, waitFor } from '../helpers/servers';

const TOOL = 'mcp__everything__simulate-research-query';
const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

async function openCore(home: string, start: { resumeTasks?: boolean } = {}) {
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    // No model answers here: a delivered task's turn fails after its message is written.
    env: {
      ...process.env,
      MOORING_NO_SHELL_PATH: '1',
      MOORING_MODEL: 'ollama:none',
      OLLAMA_HOST: 'http://127.0.0.1:9',
    },
  });
  cores.push(core);
  await core.start(start);
  return core;
}

function homeWith(servers: unknown[]): string {
  const home = tempDir('mooring-tasks-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  return home;
}

const ready = (core: MooringCore) =>
  waitFor(
    () => core.tools.list('everything').some((t) => t.tool === 'simulate-research-query'),
    'the task tool',
  );

/** The next event of a call that carries a task in `status`. */
const taskEvent = (core: MooringCore, status: string) =>
  new Promise<ToolCallEvent>((resolve) => {
    const on = (e: ToolCallEvent) => {
      if (e.tool !== 'simulate-research-query' || e.task?.status !== status) return;
      core.tools.off('toolCall', on);
      resolve(e);
    };
    core.tools.on('toolCall', on);
  });

describe('tasks over stdio', () => {
  it('simulate-research-query runs as a task: its status moves on the lifecycle, the report comes back, the record goes', async () => {
    const home = homeWith([{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }]);
    const core = await openCore(home);
    await ready(core);
    const events: ToolCallEvent[] = [];
    core.tools.on('toolCall', (e) => events.push(e));
    const working = taskEvent(core, 'working');
    const call = core.tools.call(TOOL, { topic: 'boats' }, { client: 'test', preApproved: true });
    const first = await working;
    // Recorded in the home while it runs.
    const file = JSON.parse(readFileSync(join(home, 'tasks.json'), 'utf8')) as {
      tasks: { taskId: string }[];
    };
    expect(file.tasks.map((t) => t.taskId)).toEqual([first.task!.taskId]);
    const out = await call;
    expect(resultText(out.result)).toContain('# Research Report: boats');
    const messages = events.filter((e) => e.phase === 'running' && e.task).map((e) => e.task!.statusMessage);
    expect(new Set(messages).size).toBeGreaterThanOrEqual(2);
    expect(messages).toContain('Gathering sources...');
    expect(events.at(-1)?.phase).toBe('done');
    // The call's state (what a card folds) keeps the task it ran as.
    expect(core.tools.snapshot().find((e) => e.id === first.id)).toMatchObject({
      phase: 'done',
      task: { taskId: first.task!.taskId },
    });
    expect(first.task!.cancellable).toBe(true);
    expect(JSON.parse(readFileSync(join(home, 'tasks.json'), 'utf8'))).toEqual({ tasks: [] });
  });

  it('input_required: the task asks through tasks/result, the person answers the form, the task goes on', async () => {
    const core = await openCore(
      homeWith([{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }]),
    );
    await ready(core);
    const asked = taskEvent(core, 'input_required');
    const form = new Promise<void>((resolve) =>
      core.interactions.once('requested', (r) => {
        expect(r).toMatchObject({ kind: 'elicitation-form', server: 'everything' });
        core.interactions.answer(r.id, {
          kind: 'elicitation-form',
          action: 'accept',
          content: { interpretation: 'historical' },
        });
        resolve();
      }),
    );
    const call = core.tools.call(TOOL, { topic: 'ships', ambiguous: true }, { preApproved: true });
    expect((await asked).task!.statusMessage).toMatch(/multiple interpretations/);
    await form;
    const out = await call;
    expect(resultText(out.result)).toContain('# Research Report: ships (historical)');
  });

  it('cancel sends tasks/cancel: the server marks the task cancelled and the call fails as cancelled', async () => {
    const core = await openCore(
      homeWith([{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }]),
    );
    await ready(core);
    const working = taskEvent(core, 'working');
    const call = core.tools.call(TOOL, { topic: 'slow' }, { client: 'test', preApproved: true, id: 'c-1' });
    const e = await working;
    expect(core.tasks.cancel('c-1')).toBe(true);
    await expect(call).rejects.toMatchObject({ code: 'cancelled' });
    const session = (core as unknown as { pool: { get(n: string): { requests: never } } }).pool.get(
      'everything',
    );
    const task = await getTask(session.requests, e.task!.taskId, { timeoutMs: 5_000 });
    expect(task.status).toBe('cancelled');
    expect(core.tasks.following()).toEqual([]);
  });
});

describe('a task outlives a restart of Mooring', () => {
  let everything: Awaited<ReturnType<typeof startEverythingHttp>> | undefined;
  afterAll(async () => everything?.stop());

  it('over Streamable HTTP: the next start follows it again on its session and delivers the report into the conversation', async () => {
    everything = await startEverythingHttp('streamableHttp');
    const home = homeWith([{ name: 'everything', transport: 'http', url: everything.url }]);
    const first = await openCore(home);
    await ready(first);
    const convo = await first.conversations.create({ title: 'Research', workspace: null });
    const working = taskEvent(first, 'working');
    const call = first.tools
      .call(
        TOOL,
        { topic: 'lighthouses' },
        {
          client: `conversation:${convo.id}`,
          conversationId: convo.id,
          id: 'call_1',
          preApproved: true,
        },
      )
      .catch((err: unknown) => err);
    const started = await working;
    await first.close();
    cores.splice(cores.indexOf(first), 1);
    expect(await call).toMatchObject({ code: 'cancelled' });
    const kept = JSON.parse(readFileSync(join(home, 'tasks.json'), 'utf8')) as {
      tasks: { taskId: string; httpSession?: { sessionId: string }; conversationId?: string }[];
    };
    expect(kept.tasks).toHaveLength(1);
    expect(kept.tasks[0]).toMatchObject({ taskId: started.task!.taskId, conversationId: convo.id });
    expect(kept.tasks[0]!.httpSession?.sessionId).toBeTruthy();

    const second = await openCore(home, { resumeTasks: true });
    const resumed: ToolCallEvent[] = [];
    second.tools.on('toolCall', (e) => resumed.push(e));
    const delivered = await waitFor(
      async () =>
        (await second.conversations.load(convo.id)).messages.find(
          (m) => m.role === 'user' && m.origin === 'task',
        ),
      'the delivered task',
      30_000,
    );
    const text =
      delivered.role === 'user'
        ? delivered.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
        : '';
    expect(text).toContain('call_1');
    expect(text).toContain('# Research Report: lighthouses');
    expect(delivered.id).toBe(`task:call_1:${started.task!.taskId}`);
    expect(resumed.find((e) => e.phase === 'done')).toMatchObject({
      id: 'call_1',
      conversationId: convo.id,
      task: { resumed: true, taskId: started.task!.taskId },
    });
    await waitFor(
      () =>
        (JSON.parse(readFileSync(join(home, 'tasks.json'), 'utf8')) as { tasks: unknown[] }).tasks.length ===
        0,
      'the record removed',
    );
  });

  it('over stdio the server process ends with Mooring: the next start delivers that the task is gone', async () => {
    const home = homeWith([{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }]);
    const first = await openCore(home);
    await ready(first);
    const convo = await first.conversations.create({ title: 'Lost', workspace: null });
    const working = taskEvent(first, 'working');
    const call = first.tools
      .call(TOOL, { topic: 'x' }, { conversationId: convo.id, id: 'call_2', preApproved: true })
      .catch(() => undefined);
    await working;
    await first.close();
    cores.splice(cores.indexOf(first), 1);
    await call;
    const second = await openCore(home, { resumeTasks: true });
    const delivered = await waitFor(
      async () =>
        (await second.conversations.load(convo.id)).messages.find(
          (m) => m.role === 'user' && m.origin === 'task',
        ),
      'the delivered failure',
      30_000,
    );
    expect(JSON.stringify(delivered)).toMatch(/The task failed: The server no longer knows the task/);
  });
});
