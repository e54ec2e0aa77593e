// 4. Reconnect: SIGKILL the server child under a ready Mooring session, then call `echo` until a call
// succeeds; the time from the kill to that success. Each trial uses a fresh core, so it measures a first
// reconnect, which starts at once (the actor backs off only for a server that keeps dying within 60 s,
// src-main/core/mcp/backoff.ts). Baseline: what the fastest possible reconnect costs, a raw SDK cold
// connect + first call to the same server (spawn, initialize, tools/list, call), with no backoff.
import { benchEcho, openCore, openRawClient } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, sleep, summarize } from '../lib/stats';

async function mooringTrial(): Promise<{ ms: number; failedCalls: number; firstError?: string }> {
  const { core, dispose } = await openCore([benchEcho()]);
  try {
    await core.start();
    const pidOut = await core.tools.call('mcp__benchecho__pid', {}, { client: 'bench' });
    const part = pidOut.result.parts[0];
    const pid = Number(part?.kind === 'text' ? part.text : Number.NaN);
    if (!Number.isInteger(pid)) throw new Error('the fixture did not report its pid');
    const t0 = performance.now();
    process.kill(pid, 'SIGKILL');
    let failedCalls = 0;
    let firstError: string | undefined;
    for (;;) {
      try {
        await core.tools.call('mcp__benchecho__echo', { message: 'hi' }, { client: 'bench' });
        return { ms: performance.now() - t0, failedCalls, ...(firstError ? { firstError } : {}) };
      } catch (err) {
        failedCalls++;
        firstError ??= err instanceof Error ? err.message.split('\n')[0] : String(err);
        if (performance.now() - t0 > 30_000)
          throw new Error(`Mooring did not reconnect within 30 s: ${firstError}`);
        await sleep(5);
      }
    }
  } finally {
    await dispose();
  }
}

async function rawColdCall(): Promise<number> {
  const t0 = performance.now();
  const client = await openRawClient(benchEcho());
  try {
    await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    return performance.now() - t0;
  } finally {
    await client.close();
  }
}

export async function reconnectSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const trials = ctx.quick ? 2 : 6;
  const mooring: number[] = [];
  const raw: number[] = [];
  const details: { ms: number; failedCalls: number; firstError?: string }[] = [];
  await rawColdCall(); // file cache warm for both
  for (let i = 0; i < trials; i++) {
    const m = await mooringTrial();
    mooring.push(m.ms);
    details.push({ ...m, ms: Math.round(m.ms) });
    raw.push(await rawColdCall());
  }
  const m = summarize(mooring);
  const r = summarize(raw);
  const row: Row = {
    suite: 'reconnect',
    metric: 'kill → next successful call (p50)',
    value: Math.round(m.p50),
    unit: 'ms',
    baselineName: 'raw SDK cold connect + call',
    baseline: Math.round(r.p50),
    ratio: ratio(m.p50, r.p50),
    target: '≤ 300 ms',
    met: m.p50 <= 300,
  };
  return {
    rows: [row],
    raw: {
      server: 'benchEcho.mjs (stdio)',
      trials,
      mooringMs: m,
      rawColdConnectAndCallMs: r,
      trialsDetail: details,
    },
  };
}
