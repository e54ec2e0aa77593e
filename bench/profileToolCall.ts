// Profiling aid for the tool-call benchmark (README, "Performance": where a target is missed, profile).
// Run: npx tsx --tsconfig tsconfig.json bench/profileToolCall.ts [CALLS] [IN_FLIGHT] (writes
// bench/results/prof/*.cpuprofile through node's inspector, the same format as `node --cpu-prof`, and
// prints the top self-time functions, grouped by file). It also prints the process's CPU time per call,
// which a loaded machine disturbs far less than wall time.
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { everything, openCore, ROOT } from './lib/contenders';

process.env.MOORING_NO_SHELL_PATH ??= '1';
const calls = Number(process.argv[2] ?? 5000);
const inFlight = Number(process.argv[3] ?? 1);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const { core, dispose } = await openCore([everything()]);
await core.start();
for (let i = 0; i < 500; i++)
  await core.tools.call('mcp__everything__echo', { message: 'hi' }, { client: 'bench' });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
let next = 0;
const cpu = process.cpuUsage();
const t = performance.now();
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next++ < calls)
      await core.tools.call('mcp__everything__echo', { message: 'hi' }, { client: 'bench' });
  }),
);
const ms = performance.now() - t;
const used = process.cpuUsage(cpu);
const { profile } = await session.post('Profiler.stop');
await dispose();

const dir = join(ROOT, 'bench/results/prof');
await mkdir(dir, { recursive: true });
const file = join(dir, `toolCall-${Date.now()}.cpuprofile`);
await writeFile(file, JSON.stringify(profile));

const nodes = profile.nodes as ProfileNode[];
const total = nodes.reduce((a, n) => a + (n.hitCount ?? 0), 0);
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const n of nodes) {
  const url = n.callFrame.url.replace(`file://${ROOT}`, '').replace(/^.*node_modules\//, 'nm/');
  const fn = `${n.callFrame.functionName || '(anon)'} ${url}:${n.callFrame.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + (n.hitCount ?? 0));
  const f = url || n.callFrame.functionName;
  byFile.set(f, (byFile.get(f) ?? 0) + (n.hitCount ?? 0));
}
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, hits]) => `${((hits / total) * 100).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
console.log(
  `${calls} calls, ${inFlight} in flight: ${((ms / calls) * 1000).toFixed(0)} µs/call, CPU ${(used.user / calls).toFixed(0)} µs user + ${(used.system / calls).toFixed(0)} µs system per call; profile ${file}`,
);
console.log(`\nself time by file:\n${top(byFile, 25)}\n\nself time by function:\n${top(byFn, 30)}`);
