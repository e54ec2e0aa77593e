// CLI cold start: the compiled CLI as users run it (`node bin/mooring.mjs`, docs/cli.md "How the CLI
// ships") for `--help` and for `mcp list` on a home with one server configured (read, not started), against
// `node -e 0`, the floor: Node starting and exiting with nothing loaded. Fresh processes, the three
// interleaved in rounds; target: ≤ 0.5 s median each.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { everything } from '../lib/contenders';
import { mooringBin } from '../lib/compiled';
import { timeProcess, writeServersFile } from '../lib/processes';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, rotated, summarize } from '../lib/stats';

const TARGET_MS = 500;

export async function cliStartSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const rounds = ctx.quick ? 2 : 15;
  const bin = await mooringBin();
  const home = await mkdtemp(join(tmpdir(), 'mooring-bench-cli-'));
  const spec = everything();
  writeServersFile(home, [spec]);
  const env = { ...process.env, MOORING_HOME: home };
  const runs = {
    help: { args: [bin, '--help'], ms: [] as number[] },
    list: { args: [bin, 'mcp', 'list'], ms: [] as number[] },
    node: { args: ['-e', '0'], ms: [] as number[] },
  };
  try {
    // One untimed run each: the OS file cache holds node and the build for every contender alike.
    if (!ctx.quick) for (const r of Object.values(runs)) await timeProcess(process.execPath, r.args, { env });
    for (let i = 0; i < rounds; i++)
      for (const [name, r] of rotated(Object.entries(runs), i)) {
        const run = await timeProcess(process.execPath, r.args, { env });
        if (name === 'list' && !run.stdout.includes(spec.name))
          throw new Error(`mooring mcp list did not list "${spec.name}": ${run.stdout}`);
        r.ms.push(run.ms);
      }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const s = {
    help: summarize(runs.help.ms),
    list: summarize(runs.list.ms),
    node: summarize(runs.node.ms),
  };
  const row = (metric: string, v: number): Row => ({
    suite: 'CLI cold start',
    metric,
    value: Math.round(v),
    unit: 'ms',
    baselineName: 'node -e 0',
    baseline: Math.round(s.node.p50),
    ratio: ratio(v, s.node.p50),
    target: `≤ ${TARGET_MS} ms`,
    met: v <= TARGET_MS,
  });
  return {
    rows: [row('mooring --help (p50)', s.help.p50), row('mooring mcp list (p50)', s.list.p50)],
    raw: { rounds, build: 'out/main/cli.js via bin/mooring.mjs', ms: s },
  };
}
