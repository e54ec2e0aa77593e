// Code mode against direct tool calls (docs/code-mode.md), reported, not judged: a scripted model (OpenAI's
// streaming wire format, test/fixtures/providers/) solves each task both ways on the same core and real
// reference servers — direct (every tool call in one reply, each result pasted into the next request: the
// best case for direct mode) and in code mode (one run_code program) — with the same final answer. Per
// task: tokens sent to the model (the estimate of core/tokenCount.ts over each request body), model round
// trips and wall time. And the sandbox's own cost per tool call: a program making N echo calls against N
// direct calls through the same runtime.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOpenAIServer } from '../../test/fixtures/providers/openaiServer';
import type { ScriptedReply } from '../../test/fixtures/providers/scriptedServer';
import { CodeModeRuntime } from '../../src-main/core/agent/codeModeRuntime';
import { countTokens } from '../../src-main/core/tokenCount';
import { everything, openCore, ROOT, type ServerSpec } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const MODEL = 'openai:gpt-4o';
const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

interface Task {
  name: string;
  answer: string;
  direct: ScriptedReply[];
  code: string;
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

function tasks(root: string, files: number, entities: number): Task[] {
  const names = Array.from({ length: files }, (_, i) => `file${String(i).padStart(2, '0')}.txt`);
  const people = Array.from({ length: entities }, (_, i) => `person${i}`);
  const largest = names.slice(-3).reverse().join(', ');
  return [
    {
      name: `list ${files} files, report the 3 largest`,
      answer: `The largest are ${largest}.`,
      direct: [
        { toolCalls: [call('mcp__fs__list_directory', { path: root })] },
        { toolCalls: names.map((n) => call('mcp__fs__get_file_info', { path: join(root, n) })) },
        { text: `The largest are ${largest}.` },
      ],
      code: `const l = await tools.mcp__fs__list_directory({ path: ${JSON.stringify(root)} });
const names = l.content.split('\\n').filter((x) => x.startsWith('[FILE]')).map((x) => x.slice(7));
const infos = await Promise.all(names.map((n) => tools.mcp__fs__get_file_info({ path: ${JSON.stringify(root)} + '/' + n })));
const sized = names.map((n, i) => ({ n, size: Number(/size: (\\d+)/.exec(infos[i].content)[1]) }));
return sized.sort((a, b) => b.size - a.size).slice(0, 3).map((s) => s.n).join(', ');`,
    },
    {
      name: `look up ${entities} entities, count relations`,
      answer: `They have ${entities * 2} relations.`,
      direct: [
        { toolCalls: people.map((p) => call('mcp__memory__open_nodes', { names: [p] })) },
        { text: `They have ${entities * 2} relations.` },
      ],
      code: `const names = ${JSON.stringify(people)};
const found = await Promise.all(names.map((n) => tools.mcp__memory__open_nodes({ names: [n] })));
return found.reduce((sum, g) => sum + (g.relations ?? JSON.parse(g.text).relations).length, 0) + ' relations';`,
    },
  ];
}

async function fixtures(files: number, entities: number) {
  const dir = await mkdtemp(join(tmpdir(), 'mooring-bench-code-'));
  const root = join(dir, 'files');
  await mkdir(root);
  for (let i = 0; i < files; i++)
    await writeFile(join(root, `file${String(i).padStart(2, '0')}.txt`), 'x'.repeat(100 + i * 37));
  const lines: string[] = [];
  for (let i = 0; i < entities; i++) {
    lines.push(
      JSON.stringify({
        type: 'entity',
        name: `person${i}`,
        entityType: 'person',
        observations: [`likes ${i}`],
      }),
    );
    for (const j of [1, 2])
      lines.push(
        JSON.stringify({
          type: 'relation',
          from: `person${i}`,
          to: `person${(i + j) % entities}`,
          relationType: 'knows',
        }),
      );
  }
  const memoryFile = join(dir, 'memory.jsonl');
  await writeFile(memoryFile, `${lines.join('\n')}\n`);
  return { dir, root, memoryFile };
}

export async function codeModeSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const files = 30;
  const entities = 10;
  const echoes = ctx.quick ? 20 : 100;
  const { dir, root, memoryFile } = await fixtures(files, entities);
  const servers: ServerSpec[] = [
    { name: 'fs', script: FILESYSTEM, args: [root] },
    { name: 'memory', script: MEMORY, env: { MEMORY_FILE_PATH: memoryFile } },
    everything(),
  ];
  const saved = { key: process.env.OPENAI_API_KEY };
  process.env.OPENAI_API_KEY = 'bench-key';
  const { core, dispose } = await openCore(servers);
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  try {
    await core.start();
    for (const task of tasks(root, files, entities)) {
      const measured: Record<string, { tokens: number; trips: number; ms: number; answer: string }> = {};
      for (const mode of ['direct', 'code'] as const) {
        const script: ScriptedReply[] =
          mode === 'direct'
            ? task.direct
            : [{ toolCalls: [call('run_code', { code: task.code })] }, { text: task.answer }];
        const fake = await startOpenAIServer(script);
        await core.models.save({ defaultModel: MODEL, baseUrls: { openai: `${fake.url}/v1` } });
        try {
          const turn = await core.chat.prepareTurn({
            model: MODEL,
            preApproved: true,
            interactive: false,
            ...(mode === 'code' ? { codeMode: true } : {}),
          });
          const t0 = performance.now();
          const result = await turn.run({ message: task.name });
          const ms = performance.now() - t0;
          const posts = fake.requests.filter((r) => r.method === 'POST');
          const loaded = await core.conversations.load(result.conversationId);
          const failed = loaded.messages.filter((m) => m.role === 'tool' && m.status !== 'done');
          if (failed.length) throw new Error(`${task.name} (${mode}): a step ${JSON.stringify(failed[0])}`);
          measured[mode] = {
            tokens: posts.reduce((sum, r) => sum + countTokens(JSON.stringify(r.body)), 0),
            trips: posts.length,
            ms,
            answer: result.message.text,
          };
        } finally {
          await fake.close();
        }
      }
      const d = measured.direct!;
      const c = measured.code!;
      if (d.answer !== c.answer)
        throw new Error(`${task.name}: "${d.answer}" direct, "${c.answer}" in code mode`);
      raw[task.name] = measured;
      const row = (metric: string, unit: string, code: number, direct: number): Row => ({
        suite: `code mode: ${task.name}`,
        metric,
        value: Math.round(code * 10) / 10,
        unit,
        baselineName: 'direct',
        baseline: Math.round(direct * 10) / 10,
        ratio: ratio(code, direct),
      });
      rows.push(
        row('tokens sent to the model', 'tokens', c.tokens, d.tokens),
        row('model round trips', 'requests', c.trips, d.trips),
        row('wall time of the turn', 'ms', c.ms, d.ms),
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
    rows.push({
      suite: 'code mode: sandbox overhead',
      metric: `one echo call inside a program (mean of ${echoes})`,
      value: Math.round(perCall * 100) / 100,
      unit: 'ms',
      baselineName: 'direct call (p50)',
      baseline: Math.round(d.p50 * 100) / 100,
      ratio: ratio(perCall, d.p50),
    });
    raw.overhead = { echoes, programMs, direct: d };
  } finally {
    await dispose();
    await rm(dir, { recursive: true, force: true });
    if (saved.key === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved.key;
  }
  return { rows, raw };
}
