// One chat turn with one tool call, split into whose time it is: the model's (a loopback server speaking
// OpenAI's real streaming wire format from a script, test/fixtures/providers/: from each request's arrival
// to its response's end), the tool's (server-everything's echo through the gated call, from the call's
// running to done) and Mooring's (everything else: the turn, the conversation store, the provider client,
// the catalog and the tool loop). In process, on the core, like `mooring chat` without the terminal.
import { isTerminalPhase, type ToolCallEvent } from '@shared/toolCall';
import { startOpenAIServer } from '../../test/fixtures/providers/openaiServer';
import { everything, openCore } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const MODEL = 'openai:gpt-4o';
const TOOL = 'mcp__everything__echo';

export async function chatTurnSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const turns = ctx.quick ? 2 : 20;
  const script = Array.from({ length: turns + 1 }, () => [
    { toolCalls: [{ name: TOOL, arguments: { message: 'hi' } }] },
    { text: 'The server said: Echo: hi.' },
  ]).flat();
  const fake = await startOpenAIServer(script);
  const saved = { url: process.env.MOORING_OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
  process.env.MOORING_OPENAI_BASE_URL = `${fake.url}/v1`;
  process.env.OPENAI_API_KEY = 'bench-key';
  const { core, dispose } = await openCore([everything()]);
  const split = {
    total: [] as number[],
    model: [] as number[],
    tool: [] as number[],
    mooring: [] as number[],
  };
  try {
    await core.start();
    const turn = await core.chat.prepareTurn({ model: MODEL, preApproved: true, interactive: false });
    for (let i = 0; i <= turns; i++) {
      const servedBefore = fake.served.length;
      let running = Number.NaN;
      let toolMs = Number.NaN;
      let outcome: string | undefined;
      const onPhase = (e: ToolCallEvent) => {
        if (e.phase === 'running' && Number.isNaN(running)) running = performance.now();
        if (isTerminalPhase(e.phase)) {
          toolMs = performance.now() - running;
          const text = e.result?.parts.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join('\n');
          outcome = `${e.phase}: ${text ?? e.error?.message ?? ''}`;
        }
      };
      const t0 = performance.now();
      await turn.run({ message: 'Say hi through the echo tool.', onPhase });
      const total = performance.now() - t0;
      if (!outcome?.startsWith('done') || !outcome.includes('Echo: hi'))
        throw new Error(`the turn's tool call ended ${outcome ?? 'never'}`);
      const served = fake.served.slice(servedBefore);
      if (served.length !== 2) throw new Error(`the turn made ${served.length} model requests, not 2`);
      const modelMs = served.reduce((sum, s) => sum + (s.endedAt - s.receivedAt), 0);
      if (i === 0) continue; // warm-up: the first turn loads the tokenizer and opens the conversation store
      split.total.push(total);
      split.model.push(modelMs);
      split.tool.push(toolMs);
      split.mooring.push(total - modelMs - toolMs);
    }
  } finally {
    await dispose();
    await fake.close();
    for (const [k, v] of [
      ['MOORING_OPENAI_BASE_URL', saved.url],
      ['OPENAI_API_KEY', saved.key],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  const s = Object.fromEntries(Object.entries(split).map(([k, v]) => [k, summarize(v)])) as Record<
    keyof typeof split,
    ReturnType<typeof summarize>
  >;
  const row = (metric: string, v: number): Row => ({
    suite: 'chat turn (1 tool call)',
    metric,
    value: Math.round(v * 10) / 10,
    unit: 'ms',
    baselineName: 'whole turn',
    baseline: Math.round(s.total.p50 * 10) / 10,
    ratio: ratio(v, s.total.p50),
  });
  return {
    rows: [
      row("Mooring's own time (p50)", s.mooring.p50),
      row('model: 2 streamed replies, loopback (p50)', s.model.p50),
      row('tool: echo through the gated call (p50)', s.tool.p50),
    ],
    raw: { turns, model: MODEL, tool: TOOL, ms: s },
  };
}
