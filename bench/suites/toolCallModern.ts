// 1b. Tool-call overhead on the 2026-07-28 protocol (README, "Performance"; docs/decisions/006-protocol-eras.md):
// `echo` on an echo server that speaks only 2026-07-28 over stdio (test/fixtures/servers/benchEchoModern.mjs),
// through Mooring's full path (the session negotiated the era itself) vs the raw SDK client pinned to
// 2026-07-28 on its own child of the same server. Every request carries the `_meta` envelope on both sides.
// Sequential and 16 in flight, in rounds, like the 2025 suite (toolCall.ts).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { echoContenders, openCore, type ServerSpec } from '../lib/contenders';
import { ROOT, rawCommand } from '../lib/paths';
import { comparedRow, type Row, type SuiteContext, type SuiteResult } from '../lib/report';
import { measureRounds, summarizeRounds } from '../lib/stats';

const IN_FLIGHT = 16;
const MODERN_ECHO = `${ROOT}/test/fixtures/servers/benchEchoModern.mjs`;
const spec: ServerSpec = { name: 'modern', script: MODERN_ECHO };

async function openPinnedClient(): Promise<Client> {
  const transport = new StdioClientTransport({ ...rawCommand(MODERN_ECHO), stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined);
  const client = new Client(
    { name: 'bench-raw', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  await client.listTools();
  return client;
}

export async function toolCallModernSuite(ctx: SuiteContext): Promise<SuiteResult> {
  const rounds = ctx.quick ? 2 : 10;
  const seqPerRound = ctx.quick ? 200 : 1000;
  const concPerRound = ctx.quick ? 600 : 4000;
  const warmup = ctx.quick ? 200 : 1000;

  const mooring = await openCore([spec]);
  await mooring.core.start();
  let sdk: Client | undefined;
  try {
    const version = mooring.core.servers.statuses().find((s) => s.name === 'modern')?.protocolVersion;
    if (version !== '2026-07-28')
      throw new Error(`Mooring negotiated ${version ?? 'nothing'}, not 2026-07-28`);
    sdk = await openPinnedClient();
    const raw = sdk;
    const modelName = 'mcp__modern__echo';
    const contenders = echoContenders(mooring.core, modelName, raw);
    const samples = await measureRounds(contenders, {
      rounds,
      warmup,
      seqPerRound,
      concPerRound,
      inFlight: IN_FLIGHT,
      log: ctx.log,
      label: '2026-07-28 tool-call',
    });
    const { seq: s, conc: c16, rate } = summarizeRounds(samples);
    const rows: Row[] = [
      row('p50, sequential', s.mooring!.p50, 'ms', s.sdk!.p50),
      row('p99, sequential', s.mooring!.p99, 'ms', s.sdk!.p99),
      row('p50, 16 in flight', c16.mooring!.p50, 'ms', c16.sdk!.p50),
      row('calls/s, 16 in flight', rate.mooring!, 'calls/s', rate.sdk!),
    ];
    return {
      rows,
      raw: {
        server: 'benchEchoModern echo over stdio, 2026-07-28 only',
        rounds,
        sequentialPerRound: seqPerRound,
        concurrentPerRound: concPerRound,
        inFlight: IN_FLIGHT,
        sequentialMs: s,
        inFlightMs: c16,
        callsPerSecondByRound: samples.rates,
      },
    };
  } finally {
    await Promise.all([mooring.dispose(), sdk?.close()]);
  }
}

function row(metric: string, value: number, unit: string, baseline: number): Row {
  return comparedRow(
    { suite: 'tool call, 2026-07-28', metric, value, unit, baselineName: 'raw SDK, pinned', baseline },
    3,
  );
}
