// Where Mooring's per-call time goes (README, "Performance": profile, find what is ours): each stage of the core's
// one tool call (core.tools.call) timed alone, next to the SDK client call it wraps. The stages that are
// not the whole call run on the bench's own pieces (a session to the same server, an approval store and
// audit log in a scratch folder), so the bench never reaches into the core's fields. Stages run
// interleaved in rounds like the contenders; the figures are µs per call (median of rounds).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MooringCore } from '../../src-main/core/mooringCore';
import { SessionPool } from '../../src-main/core/mcp/sessionPool';
import { ApprovalBroker } from '../../src-main/core/safety/approvalBroker';
import { authorizeCall } from '../../src-main/core/safety/approvalGate';
import { ApprovalStore } from '../../src-main/core/safety/approvalStore';
import { AuditLog } from '../../src-main/core/safety/auditLog';
import { normalizeResult } from '../../src-main/core/catalog/normalizeResult';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { rotated, runConcurrent, summarize } from '../lib/stats';

export async function stageBreakdown(
  core: MooringCore,
  modelName: string,
  opts: { rounds: number; perRound: number },
): Promise<Record<string, number>> {
  const entry = core.tools.catalog().resolve(modelName);
  const scratch = await mkdtemp(join(tmpdir(), 'mooring-bench-breakdown-'));
  const pool = new SessionPool();
  await pool.sync((await core.servers.configs()).filter((c) => c.name === entry.server));
  const actor = pool.get(entry.server)!;
  const audit = new AuditLog(scratch);
  const def = entry.handle.definition;
  const gate = {
    store: await ApprovalStore.open(scratch),
    broker: new ApprovalBroker(),
    audit,
    yolo: () => false,
  };
  const gateCall = {
    config: actor.config,
    tool: {
      name: def.name,
      description: def.description,
      inputSchema: def.inputSchema,
      annotations: def.annotations,
    },
    enabled: true,
    arguments: { message: 'hi' },
    client: 'bench',
  };
  let raw: CallToolResult | undefined;
  const stages: [string, () => unknown][] = [
    [
      'catalog resolve + argument repair',
      () => core.tools.catalog().prepareArguments(core.tools.catalog().resolve(modelName), { message: 'hi' }),
    ],
    ['safety: authorizeCall incl. audit line', () => authorizeCall(gate, gateCall)],
    // What the core decides for each call before its audit line (calls/callTarget.ts, decideGate): the
    // inputs read as they are now, the approvals file and the quarantine checked (one stat each).
    ['safety: the verdict decided now (core.tools)', () => core.tools.runsWithoutAsking(entry)],
    [
      'safety: audit line alone',
      () =>
        audit.record({
          server: entry.server,
          tool: entry.tool,
          decision: 'auto',
          decidedBy: 'policy',
          fingerprint: 'f',
          reason: 'bench',
          arguments: { message: 'hi' },
        }),
    ],
    ['session actor callTool', async () => (raw = await actor.callTool(entry.tool, { message: 'hi' }))],
    // The request handler alone (it holds the SDK client; the raw SDK is the echo suites' contender).
    [
      'request handler callTool on the same session',
      () => actor.requests.callTool(entry.tool, { message: 'hi' }),
    ],
    ['result normalisation', () => normalizeResult(raw!, { outputSchema: entry.outputSchema })],
    [
      'MooringCore.callTool (all of it)',
      () => core.tools.call(modelName, { message: 'hi' }, { client: 'bench' }),
    ],
  ];
  const perStage = new Map<string, number[]>(stages.map(([k]) => [k, []]));
  for (let r = 0; r < opts.rounds; r++)
    for (const [name, fn] of rotated(stages, r)) {
      const t = performance.now();
      for (let i = 0; i < opts.perRound; i++) await fn();
      perStage.get(name)!.push(((performance.now() - t) / opts.perRound) * 1000);
    }
  // The audit line 16 at a time: what the log costs when calls overlap (each line written in place on
  // the open handle, the fsync behind them; config/jsonlAppender.ts).
  const n = opts.perRound * 4;
  const audit16 = await runConcurrent(n, 16, async () => {
    await audit.record({
      server: entry.server,
      tool: entry.tool,
      decision: 'auto',
      decidedBy: 'policy',
      fingerprint: 'f',
      reason: 'bench',
      arguments: { message: 'hi' },
    });
  });
  await pool.closeAll();
  await audit.close();
  await rm(scratch, { recursive: true, force: true });
  const out: Record<string, number> = Object.fromEntries(
    [...perStage].map(([k, v]) => [k, Math.round(summarize(v).p50)]),
  );
  out['audit lines/s, 16 at a time'] = Math.round((n / audit16.wallMs) * 1000);
  return out;
}
