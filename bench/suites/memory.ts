// 6. Memory (issue 9): RSS of Mooring's core holding 10 sessions vs 10 raw SDK clients, each measured
// in its own child process (bench/memoryChild.ts) after 20 calls per session and a forced GC. Both
// children run under the same tsx loader, so its cost is in both figures alike; Mooring's is its
// TypeScript sources transpiled in memory (the packaged app loads a prebuilt bundle instead).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../lib/paths';
import type { SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const run = promisify(execFile);
const MB = 1024 * 1024;

interface ChildMemory {
  mode: string;
  gc: boolean;
  idleRss: number;
  rss: number;
  heapUsed: number;
  external: number;
}

async function measure(mode: 'mooring' | 'sdk'): Promise<ChildMemory> {
  const { stdout } = await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/tsx/dist/cli.mjs'),
      '--tsconfig',
      join(ROOT, 'tsconfig.json'),
      join(ROOT, 'bench/memoryChild.ts'),
      mode,
    ],
    { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '--expose-gc' }, timeout: 60_000 },
  );
  const line = stdout.trim().split('\n').pop() ?? '';
  const parsed = JSON.parse(line) as ChildMemory;
  if (parsed.mode !== mode) throw new Error(`memory child for ${mode} printed ${line}`);
  return parsed;
}

export async function memorySuite(ctx: SuiteContext): Promise<SuiteResult> {
  const trials = ctx.quick ? 1 : 3;
  const m: ChildMemory[] = [];
  const s: ChildMemory[] = [];
  for (let i = 0; i < trials; i++) {
    for (const mode of i % 2 === 0 ? (['mooring', 'sdk'] as const) : (['sdk', 'mooring'] as const))
      (mode === 'mooring' ? m : s).push(await measure(mode));
    ctx.log(`memory trial ${i + 1}/${trials} done`);
  }
  const mb = (v: number) => Math.round((v / MB) * 10) / 10;
  const mRss = summarize(m.map((x) => x.rss));
  const sRss = summarize(s.map((x) => x.rss));
  return {
    rows: [
      {
        suite: 'memory',
        metric: 'RSS with 10 sessions (p50)',
        value: mb(mRss.p50),
        unit: 'MB',
        baselineName: 'raw SDK',
        baseline: mb(sRss.p50),
        ratio: ratio(mRss.p50, sRss.p50),
      },
    ],
    raw: {
      sessions: 10,
      server: 'server-everything stdio',
      gcForced: m.every((x) => x.gc) && s.every((x) => x.gc),
      mooring: m.map((x) => ({
        rssMB: mb(x.rss),
        idleRssMB: mb(x.idleRss),
        heapUsedMB: mb(x.heapUsed),
        externalMB: mb(x.external),
      })),
      sdk: s.map((x) => ({
        rssMB: mb(x.rss),
        idleRssMB: mb(x.idleRss),
        heapUsedMB: mb(x.heapUsed),
        externalMB: mb(x.external),
      })),
    },
  };
}
