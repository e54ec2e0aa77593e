// A one-shot call end to end, as a script or a person runs it: `mooring mcp call everything echo` (the
// compiled CLI: start, open the core, spawn and initialize server-everything, list its tools, the gated
// call, close) against a raw SDK script that spawns, calls and closes the same server (bench/raw/rawCall.ts,
// compiled the same way). "Close" is the time from the result on stdout to the process's exit: the session
// closing and the server ending, which the user still waits for.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everything } from '../lib/contenders';
import { compiledScript, mooringBin } from '../lib/compiled';
import { timeProcess, writeServersFile, type ProcessRun } from '../lib/processes';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, rotated, summarize } from '../lib/stats';

const CLOSE_TARGET_MS = 300;

export async function cliCallSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const rounds = ctx.quick ? 2 : 10;
  const bin = await mooringBin();
  const rawCall = await compiledScript('rawCall');
  const spec = everything();
  const home = await mkdtemp(join(tmpdir(), 'mooring-bench-call-'));
  writeServersFile(home, [spec]);
  const env = { ...process.env, MOORING_HOME: home };
  const args = JSON.stringify({ message: 'hi' });
  const contenders = {
    mooring: [bin, 'mcp', 'call', spec.name, 'echo', args],
    sdk: [rawCall, spec.script, 'echo', args, ...(spec.args ?? [])],
  };
  const runs: Record<keyof typeof contenders, ProcessRun[]> = { mooring: [], sdk: [] };
  try {
    if (!ctx.quick)
      for (const argv of Object.values(contenders)) await timeProcess(process.execPath, argv, { env });
    for (let i = 0; i < rounds; i++)
      for (const [name, argv] of rotated(Object.entries(contenders), i)) {
        const run = await timeProcess(process.execPath, argv, { env });
        if (!run.stdout.includes('Echo: hi'))
          throw new Error(`${name} printed ${JSON.stringify(run.stdout)}`);
        runs[name as keyof typeof contenders].push(run);
      }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const total = (k: keyof typeof runs) => summarize(runs[k].map((r) => r.ms));
  const close = (k: keyof typeof runs) => summarize(runs[k].map((r) => r.ms - r.firstOutputMs));
  const [mt, st, mc, sc] = [total('mooring'), total('sdk'), close('mooring'), close('sdk')];
  const rows: Row[] = [
    {
      suite: 'one-shot call',
      metric: 'mooring mcp call echo, end to end (p50)',
      value: Math.round(mt.p50),
      unit: 'ms',
      baselineName: 'raw SDK script',
      baseline: Math.round(st.p50),
      ratio: ratio(mt.p50, st.p50),
      target: '≤ 1.50×',
      met: ratio(mt.p50, st.p50) <= 1.5,
    },
    {
      suite: 'one-shot call',
      metric: 'close: result printed → exit (p50)',
      value: Math.round(mc.p50),
      unit: 'ms',
      baselineName: 'raw SDK script',
      baseline: Math.round(sc.p50),
      ratio: ratio(mc.p50, sc.p50),
      target: `≤ ${CLOSE_TARGET_MS} ms`,
      met: mc.p50 <= CLOSE_TARGET_MS,
    },
  ];
  return {
    rows,
    raw: {
      server: 'server-everything stdio',
      rounds,
      totalMs: { mooring: mt, sdk: st },
      closeMs: { mooring: mc, sdk: sc },
      firstOutputMs: {
        mooring: summarize(runs.mooring.map((r) => r.firstOutputMs)),
        sdk: summarize(runs.sdk.map((r) => r.firstOutputMs)),
      },
    },
  };
}
