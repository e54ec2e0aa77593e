// Code mode against direct tool calls (docs/code-mode.md), reported, not judged: the scripted model of
// test/fixtures/codeModeTasks.ts solves each of three tasks both ways on the same core and real reference
// servers — direct (each step's calls in one reply, every result pasted into the next request: the best case
// for direct mode) and in code mode (one run_code program) — and must reach the fixture's answer both ways.
// Per task: tokens sent to the model (core/tokenCount.ts over each request body), model round trips, wall
// time, and the sandbox's own CPU time per call against the call itself. And the sandbox's cost per call
// against a direct call: a program making N echo calls against N direct calls through the same runtime.
import { rm } from 'node:fs/promises';
import type { ProgramStep } from '../../shared/codeMode';
import { codeModeTasks, taskServers, taskWorld, tasksModel } from '../../test/fixtures/codeModeTasks';
import { startOpenAIServer } from '../../test/fixtures/providers/openaiServer';
import { CodeModeRuntime } from '../../src-main/core/agent/codeModeRuntime';
import { countTokens } from '../../src-main/core/tokenCount';
import { openCore } from '../lib/contenders';
import { comparedRow, type Row, type SuiteContext, type SuiteResult } from '../lib/report';
import { summarize } from '../lib/stats';

const MODEL = 'openai:gpt-4o';

export async function codeModeSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const echoes = ctx.quick ? 20 : 100;
  const world = taskWorld({ files: 30, entities: 10 });
  const tasks = codeModeTasks(world);
  const saved = { key: process.env.OPENAI_API_KEY };
  process.env.OPENAI_API_KEY = 'bench-key';
  const { core, dispose } = await openCore(taskServers(world));
  const fake = await startOpenAIServer(tasksModel(tasks));
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  try {
    await core.start();
    await core.models.save({ defaultModel: MODEL, baseUrls: { openai: `${fake.url}/v1` } });
    for (const task of tasks) {
      const measured: Record<
        string,
        { tokens: number; trips: number; ms: number; answer: string; program?: ProgramStep }
      > = {};
      for (const mode of ['direct', 'code'] as const) {
        const before = fake.requests.length;
        const turn = await core.chat.prepareTurn({
          model: MODEL,
          preApproved: true,
          interactive: false,
          ...(mode === 'code' ? { codeMode: true } : {}),
        });
        const t0 = performance.now();
        const result = await turn.run({ message: task.prompt });
        const ms = performance.now() - t0;
        const posts = fake.requests.slice(before).filter((r) => r.method === 'POST');
        const loaded = await core.conversations.load(result.conversationId);
        const steps = loaded.messages.filter((m) => m.role === 'tool');
        const failed = steps.filter((m) => m.status !== 'done');
        if (failed.length) throw new Error(`${task.prompt} (${mode}): a step ${JSON.stringify(failed[0])}`);
        const program = steps.find((m) => m.program)?.program;
        measured[mode] = {
          tokens: posts.reduce((sum, r) => sum + countTokens(JSON.stringify(r.body)), 0),
          trips: posts.length,
          ms,
          answer: result.message.text,
          ...(program ? { program } : {}),
        };
      }
      const d = measured.direct!;
      const c = measured.code!;
      if (d.answer !== task.expected || c.answer !== task.expected)
        throw new Error(
          `${task.prompt}: "${d.answer}" direct, "${c.answer}" in code mode, "${task.expected}" expected`,
        );
      raw[task.prompt] = { ...measured, code: { ...c, program: undefined } };
      const suite = `code mode: ${task.prompt}`;
      const vsDirect = (metric: string, unit: string, value: number, baseline: number) =>
        comparedRow({ suite, metric, unit, value, baselineName: 'direct', baseline });
      rows.push(
        vsDirect('tokens sent to the model', 'tokens', c.tokens, d.tokens),
        vsDirect('model round trips', 'requests', c.trips, d.trips),
        vsDirect('wall time of the turn', 'ms', c.ms, d.ms),
      );
      // The sandbox's own time per call (QuickJS running the program, tools excluded) against the mean time
      // of one of the program's calls (the call itself, through the same runtime a direct call takes).
      const calls = c.program!.calls;
      const callMs = calls.reduce((sum, x) => sum + x.ms, 0) / calls.length;
      rows.push(
        comparedRow(
          {
            suite,
            metric: `sandbox CPU per tool call (${calls.length} calls)`,
            unit: 'ms',
            value: c.program!.cpuMs / calls.length,
            baselineName: 'the call itself, mean',
            baseline: callMs,
          },
          2,
        ),
      );
    }

    // The sandbox's own cost per call: N echo calls in one program against N direct calls.
    const inner = core.chat.toolRuntime({ provider: 'openai', preApproved: true, interactive: false });
    const code = new CodeModeRuntime(inner);
    const cid = 'bench-code-mode';
    const signal = new AbortController().signal;
    inner.tools(cid);
    const direct: number[] = [];
    for (let i = 0; i < echoes; i++) {
      const t = performance.now();
      const out = await inner.execute(
        { id: `d${i}`, name: 'mcp__everything__echo', arguments: { message: 'hi' } },
        { conversationId: cid, signal },
      );
      if (out.status !== 'done') throw new Error(`direct echo: ${out.text}`);
      direct.push(performance.now() - t);
    }
    const t = performance.now();
    const program = await code.execute(
      {
        id: 'p',
        name: 'run_code',
        arguments: {
          code: `for (let i = 0; i < ${echoes}; i++) await tools.mcp__everything__echo({ message: 'hi' }); return 'ok';`,
        },
      },
      { conversationId: cid, signal },
    );
    const programMs = performance.now() - t;
    if (program.status !== 'done') throw new Error(`program: ${program.text}`);
    const perCall = programMs / echoes;
    const d = summarize(direct);
    rows.push(
      comparedRow(
        {
          suite: 'code mode: sandbox overhead',
          metric: `one echo call inside a program (mean of ${echoes})`,
          unit: 'ms',
          value: perCall,
          baselineName: 'direct call (p50)',
          baseline: d.p50,
        },
        2,
      ),
    );
    raw.overhead = { echoes, programMs, direct: d };
  } finally {
    await fake.close();
    await dispose();
    await rm(world.dir, { recursive: true, force: true });
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
  }
  return { rows, raw };
}
