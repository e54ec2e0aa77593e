// `mooring serve --stdio` at rest: the compiled CLI serving the tools of 3, 10 and 30 server-everything
// sessions (3 only in --quick) to one MCP client, against a raw SDK server process relaying the same servers (bench/raw/rawRelay.ts,
// compiled the same way). Each is started by an SDK client as an MCP client would start it, initialized, its
// tool list read (the relayed tools present), then left idle for a moment; its resident memory is read from
// /proc (the servers it spawned are not counted: the same for both).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { everything, type ServerSpec } from '../lib/contenders';
import { compiledScript, mooringBin } from '../lib/compiled';
import { rssBytes, writeServersFile } from '../lib/processes';
import type { SuiteContext, SuiteResult } from '../lib/report';
import { ratio, sleep, summarize } from '../lib/stats';

const SERVERS = { full: [3, 10, 30], quick: [3] };
/** Idle time before the reading: long enough for start-up garbage to be collected (less in --quick, a smoke run). */
const SETTLE_MS = { full: 1000, quick: 300 };
const MB = 1024 * 1024;

async function idleRss(opts: {
  settleMs: number;
  args: string[];
  env: NodeJS.ProcessEnv;
  expectTool: (names: string[]) => boolean;
}): Promise<number> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: opts.args,
    env: opts.env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'bench-serve-idle', version: '0.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    if (!opts.expectTool(tools.map((t) => t.name)))
      throw new Error(`the relayed tools are missing: ${tools.map((t) => t.name).join(', ')}`);
    await sleep(opts.settleMs);
    const rss = transport.pid ? rssBytes(transport.pid) : undefined;
    if (rss === undefined) throw new Error('no /proc/<pid>/status to read the resident memory from');
    return rss;
  } finally {
    await client.close();
  }
}

export async function serveIdleSuite(ctx: SuiteContext): Promise<SuiteResult> {
  if (process.platform !== 'linux') {
    ctx.log('serve idle memory: skipped, /proc is Linux only');
    return { rows: [], raw: { skipped: 'not Linux' } };
  }
  const rows: SuiteResult['rows'] = [];
  const raw: Record<string, unknown> = {};
  for (const servers of ctx.quick ? SERVERS.quick : SERVERS.full) {
    const r = await serveIdleWith(ctx, servers);
    rows.push(r.row);
    raw[`${servers} servers`] = r.raw;
  }
  return { rows, raw };
}

async function serveIdleWith(ctx: SuiteContext, servers: number) {
  const trials = ctx.quick ? 1 : 3;
  const settleMs = ctx.quick ? SETTLE_MS.quick : SETTLE_MS.full;
  const bin = await mooringBin();
  const relay = await compiledScript('rawRelay');
  const specs: ServerSpec[] = Array.from({ length: servers }, (_, i) => everything(`everything${i}`));
  const home = await mkdtemp(join(tmpdir(), 'mooring-bench-serve-'));
  writeServersFile(home, specs);
  const env = { ...process.env, MOORING_HOME: home };
  const mooring: number[] = [];
  const sdk: number[] = [];
  try {
    for (let i = 0; i < trials; i++) {
      const order = i % 2 === 0 ? (['mooring', 'sdk'] as const) : (['sdk', 'mooring'] as const);
      for (const who of order)
        if (who === 'mooring')
          mooring.push(
            await idleRss({
              settleMs,
              args: [bin, 'serve', '--stdio'],
              env,
              expectTool: (n) => specs.every((s) => n.includes(`mcp__${s.name}__echo`)),
            }),
          );
        else
          sdk.push(
            await idleRss({
              settleMs,
              args: [relay, JSON.stringify(specs)],
              env,
              expectTool: (n) => specs.every((s) => n.includes(`${s.name}__echo`)),
            }),
          );
      ctx.log(`serve idle, ${servers} servers: trial ${i + 1}/${trials} done`);
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }
  const m = summarize(mooring);
  const s = summarize(sdk);
  const mb = (v: number) => Math.round((v / MB) * 10) / 10;
  const r = ratio(m.p50, s.p50);
  return {
    row: {
      suite: 'serve --stdio',
      metric: `idle RSS, ${servers} servers relayed (p50)`,
      value: mb(m.p50),
      unit: 'MB',
      baselineName: 'raw SDK relay',
      baseline: mb(s.p50),
      ratio: r,
      target: '≤ 1.30×',
      met: r <= 1.3,
    },
    raw: {
      servers: `${servers} × server-everything stdio`,
      trials,
      settleMs,
      mooringMB: mooring.map(mb),
      sdkMB: sdk.map(mb),
    },
  };
}
