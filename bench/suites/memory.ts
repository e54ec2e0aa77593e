// 6. Memory: RSS of Mooring's core holding 10 sessions vs 10 raw SDK clients, each measured in its own
// child process (bench/memoryChild.ts) after 20 calls per session and a forced GC. Both children are the
// same compiled bundle (bench/lib/compiled.ts: dependencies bundled in, as the product ships) run by plain
// node, so neither pays for a TypeScript loader.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { compiledScript } from '../lib/compiled';
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
  const { stdout } = await run(process.execPath, ['--expose-gc', await compiledScript('memoryChild'), mode], {
    cwd: ROOT,
    timeout: 60_000,
  });
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
        target: '≤ 1.30×',
        met: ratio(mRss.p50, sRss.p50) <= 1.3,
      },
    ],
    raw: {
      sessions: 10,
      children: 'bench/results/compiled/memoryChild.mjs under node --expose-gc (both sides)',
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
