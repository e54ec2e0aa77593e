// 1. Tool-call overhead: `echo` on server-everything over stdio through Mooring's full path
// (MooringCore.callTool: catalog resolution, argument repair, safety decision + audit line for an
// auto-approved tool, session actor, result normalisation) vs the raw SDK client on its own
// server-everything child vs the bare newline-JSON floor. Sequential and 16 in flight, in rounds.
import type { Client } from '@modelcontextprotocol/client';
import {
  echoContenders,
  everything,
  expectEcho,
  FloorClient,
  openCore,
  openRawClient,
} from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { measureRounds, ratio, summarizeRounds, type Contender } from '../lib/stats';
import { stageBreakdown } from './breakdown';

const IN_FLIGHT = 16;

export async function toolCallSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const rounds = ctx.quick ? 2 : 10;
  const seqPerRound = ctx.quick ? 200 : 1000;
  const concPerRound = ctx.quick ? 600 : 4000;
  const warmup = ctx.quick ? 200 : 1000;

  const mooring = await openCore([everything()]);
  await mooring.core.start();
  let sdk: Client | undefined;
  const floor = new FloorClient();
  try {
    sdk = await openRawClient(everything());
    const modelName = 'mcp__everything__echo';
    const first = await mooring.core.tools.call(modelName, { message: 'hi' }, { client: 'bench' });
    if (first.decision !== 'auto')
      throw new Error(`Mooring's safety decision was ${first.decision}, not auto`);
    const raw = sdk;
    const contenders: Contender<'mooring' | 'sdk' | 'floor'>[] = [
      ...echoContenders(mooring.core, modelName, raw),
      {
        name: 'floor',
        call: async () => {
          const r = (await floor.call('hi')) as { content: { text: string }[] };
          expectEcho(r.content[0]?.text, 'floor');
        },
      },
    ];

    const samples = await measureRounds(contenders, {
      rounds,
      warmup,
      seqPerRound,
      concPerRound,
      inFlight: IN_FLIGHT,
      log: ctx.log,
      label: 'tool-call',
    });

    const breakdownUs = await stageBreakdown(mooring.core, modelName, {
      rounds: ctx.quick ? 2 : 8,
      perRound: ctx.quick ? 60 : 300,
    });

    const { seq: s, conc: c16, rate } = summarizeRounds(samples);
    const m = s.mooring!;
    const rows: Row[] = [
      row('p50, sequential', m.p50, 'ms', 'raw SDK', s.sdk!.p50, '≤ 1.10×', (x) => x <= 1.1),
      row('p50, sequential', m.p50, 'ms', 'floor', s.floor!.p50),
      row('p99, sequential', m.p99, 'ms', 'raw SDK', s.sdk!.p99, '≤ 1.25×', (x) => x <= 1.25),
      row('p50, 16 in flight', c16.mooring!.p50, 'ms', 'raw SDK', c16.sdk!.p50),
      row('p99, 16 in flight', c16.mooring!.p99, 'ms', 'raw SDK', c16.sdk!.p99),
      row(
        'calls/s, 16 in flight',
        rate.mooring!,
        'calls/s',
        'raw SDK',
        rate.sdk!,
        '≥ 0.90×',
        (x) => x >= 0.9,
      ),
      row('calls/s, 16 in flight', rate.mooring!, 'calls/s', 'floor', rate.floor!),
    ];
    return {
      rows,
      raw: {
        server: 'server-everything echo over stdio',
        rounds,
        sequentialPerRound: seqPerRound,
        concurrentPerRound: concPerRound,
        inFlight: IN_FLIGHT,
        sequentialMs: s,
        inFlightMs: c16,
        callsPerSecondByRound: samples.rates,
        breakdownUsPerCall: breakdownUs,
      },
    };
  } finally {
    await Promise.all([mooring.dispose(), sdk?.close(), floor.close()]);
  }
}

function row(
  metric: string,
  value: number,
  unit: string,
  baselineName: string,
  baseline: number,
  target?: string,
  check?: (ratio: number) => boolean,
): Row {
  const r = ratio(value, baseline);
  return {
    suite: 'tool call',
    metric,
    value: Math.round(value * 1000) / 1000,
    unit,
    baselineName,
    baseline: Math.round(baseline * 1000) / 1000,
    ratio: r,
    ...(target ? { target, met: check!(r) } : {}),
  };
}
