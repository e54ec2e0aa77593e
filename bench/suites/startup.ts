// 2. Start-up (README.md, Performance): 10 stdio servers (server-everything) connected in parallel. Mooring:
// MooringCore.open + start() (the pool's parallel sync: allowlist, package check, secrets, spawn,
// initialize, tools/list); raw SDK: 10 Clients connect + listTools in parallel (a host needs the tools
// too). "All ready" is when the last is ready; "first ready" when the first one is.
import type { Client } from '@modelcontextprotocol/client';
import { everything, openCore, openRawClient } from '../lib/contenders';
import type { Row, SuiteContext, SuiteResult } from '../lib/report';
import { ratio, summarize } from '../lib/stats';

const SERVERS = 10;

async function mooringStart(): Promise<{ all: number; first: number }> {
  const specs = Array.from({ length: SERVERS }, (_, i) => everything(`everything${i}`));
  const t0 = performance.now();
  const { core, dispose } = await openCore(specs);
  let first = Number.NaN;
  core.on('status', (s) => {
    if (s.state === 'ready' && Number.isNaN(first)) first = performance.now() - t0;
  });
  try {
    await core.start();
    const all = performance.now() - t0;
    const ready = core.servers.statuses().filter((s) => s.state === 'ready').length;
    if (ready !== SERVERS) throw new Error(`Mooring: only ${ready} of ${SERVERS} servers came up`);
    return { all, first };
  } finally {
    await dispose();
  }
}

async function rawStart(): Promise<{ all: number; first: number }> {
  const t0 = performance.now();
  let first = Number.NaN;
  const clients: Client[] = [];
  try {
    await Promise.all(
      Array.from({ length: SERVERS }, async (_, i) => {
        const c = await openRawClient(everything(`everything${i}`));
        clients.push(c);
        if (Number.isNaN(first)) first = performance.now() - t0;
      }),
    );
    return { all: performance.now() - t0, first };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

export async function startupSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const rounds = ctx.quick ? 1 : 6;
  const samples = {
    mooringAll: [] as number[],
    mooringFirst: [] as number[],
    sdkAll: [] as number[],
    sdkFirst: [] as number[],
  };
  // Warm the OS file cache for node and the server's modules, for both alike (quick mode relies on
  // the tool-call suite having started server-everything already).
  if (!ctx.quick) await rawStart();
  for (let r = 0; r < rounds; r++) {
    // Alternate who goes first: the second of a pair runs on a machine the first just heated.
    const order = r % 2 === 0 ? ['mooring', 'sdk'] : ['sdk', 'mooring'];
    for (const who of order) {
      const t = who === 'mooring' ? await mooringStart() : await rawStart();
      samples[`${who as 'mooring' | 'sdk'}All`].push(t.all);
      samples[`${who as 'mooring' | 'sdk'}First`].push(t.first);
    }
    ctx.log(`start-up round ${r + 1}/${rounds} done`);
  }
  const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const row = (metric: string, m: number, b: number, target?: string): Row => {
    const r = ratio(m, b);
    return {
      suite: 'start-up (10 stdio)',
      metric,
      value: Math.round(m),
      unit: 'ms',
      baselineName: 'raw SDK',
      baseline: Math.round(b),
      ratio: r,
      ...(target ? { target, met: r <= 1.1 } : {}),
    };
  };
  return {
    rows: [
      row('all ready (p50)', s.mooringAll!.p50, s.sdkAll!.p50, '≤ 1.10×'),
      row('first ready (p50)', s.mooringFirst!.p50, s.sdkFirst!.p50),
    ],
    raw: { servers: SERVERS, server: 'server-everything stdio', rounds, ms: s },
  };
}
