// Confinement's cost (docs/confinement.md): the same server-everything through Mooring's full path, once
// confined (bubblewrap, strace observing, no network) and once not. Start-up: one core, one server, from
// open to ready. Calls: `echo`, sequential and 16 in flight, in interleaved rounds on one core running both.
// Where confinement cannot run here the suite says why and reports nothing.
import { checkAvailability } from '../../src-main/core/confine/availability';
import { everything, expectEcho, openCore } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { measureRounds, ratio, summarize, summarizeRounds, type Contender } from '../lib/stats';

const IN_FLIGHT = 16;

async function startOnce(confined: boolean): Promise<number> {
  const t0 = performance.now();
  const { core, dispose } = await openCore([{ ...everything('one'), sandboxEnabled: confined }]);
  try {
    await core.start();
    const s = core.servers.statuses()[0];
    if (s?.state !== 'ready')
      throw new Error(`${confined ? 'confined' : 'unconfined'} start: ${s?.error?.message}`);
    return performance.now() - t0;
  } finally {
    await dispose();
  }
}

export async function confinedSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const tools = await checkAvailability();
  if (!tools.ok) {
    ctx.log(`confinement does not run here (${tools.reason}); nothing to compare`);
    return { rows: [], raw: { skipped: tools.reason } };
  }
  const startRounds = ctx.quick ? 2 : 8;
  const starts = { confined: [] as number[], unconfined: [] as number[] };
  for (let r = 0; r < startRounds; r++)
    for (const confined of r % 2 === 0 ? [true, false] : [false, true])
      starts[confined ? 'confined' : 'unconfined'].push(await startOnce(confined));
  ctx.log(`start-up: ${startRounds} rounds each done`);

  const { core, dispose } = await openCore([
    everything('open'),
    { ...everything('boxed'), sandboxEnabled: true },
  ]);
  try {
    await core.start();
    const echo = (server: string) => async () => {
      const out = await core.tools.call(`mcp__${server}__echo`, { message: 'hi' }, { client: 'bench' });
      const p = out.result.parts[0];
      expectEcho(p?.kind === 'text' ? p.text : p, server);
    };
    const contenders: Contender<'confined' | 'unconfined'>[] = [
      { name: 'confined', call: echo('boxed') },
      { name: 'unconfined', call: echo('open') },
    ];
    const samples = await measureRounds(contenders, {
      rounds: ctx.quick ? 2 : 8,
      warmup: ctx.quick ? 100 : 500,
      seqPerRound: ctx.quick ? 100 : 800,
      concPerRound: ctx.quick ? 300 : 3000,
      inFlight: IN_FLIGHT,
      log: ctx.log,
      label: 'confined calls',
    });
    const s = summarizeRounds(samples);
    const start = { confined: summarize(starts.confined), unconfined: summarize(starts.unconfined) };
    const row = (metric: string, value: number, baseline: number, unit: string): Row => ({
      suite: 'confined (server-everything)',
      metric,
      value: unit === 'ms' && value >= 10 ? Math.round(value) : value,
      unit,
      baselineName: 'unconfined',
      baseline: unit === 'ms' && baseline >= 10 ? Math.round(baseline) : baseline,
      ratio: ratio(value, baseline),
      ...(tools.observesFiles ? {} : { note: 'strace not observing' }),
    });
    return {
      rows: [
        row('start-up to ready (p50)', start.confined.p50, start.unconfined.p50, 'ms'),
        row('echo sequential (p50)', s.seq.confined!.p50, s.seq.unconfined!.p50, 'ms'),
        row(`echo ${IN_FLIGHT} in flight (p50)`, s.conc.confined!.p50, s.conc.unconfined!.p50, 'ms'),
      ],
      raw: { startMs: start, seq: s.seq, conc: s.conc, rate: s.rate, observesFiles: tools.observesFiles },
    };
  } finally {
    await dispose();
  }
}
