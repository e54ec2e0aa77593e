// Where Mooring's per-call time goes (issue 9, "profile, find what is ours"): each stage of
// MooringCore.callTool timed alone on the same warm session, next to the SDK client call it wraps.
// Stages run interleaved in rounds like the contenders; the figures are µs per call (median of rounds).
import type { MooringCore } from '../../src-main/core/mooringCore';
import { authorizeCall } from '../../src-main/core/safety/approvalGate';
import { normalizeResult } from '../../src-main/core/catalog/normalizeResult';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { rotated, summarize } from '../lib/stats';

export async function stageBreakdown(
  core: MooringCore,
  modelName: string,
  opts: { rounds: number; perRound: number },
): Promise<Record<string, number>> {
  const entry = core.catalog().resolve(modelName);
  const actor = core.pool.get(entry.server)!;
  const def = entry.handle.definition;
  const gate = { store: core.approvals, broker: core.broker, audit: core.audit, yolo: () => false };
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
      () => core.catalog().prepareArguments(core.catalog().resolve(modelName), { message: 'hi' }),
    ],
    ['safety: authorizeCall incl. audit line', () => authorizeCall(gate, gateCall)],
    [
      'safety: audit line alone',
      () =>
        core.audit.record({
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
    [
      'SDK client callTool on the same session',
      () => actor.sdkClient()!.callTool({ name: entry.tool, arguments: { message: 'hi' } }),
    ],
    ['result normalisation', () => normalizeResult(raw!, { outputSchema: entry.outputSchema })],
    [
      'MooringCore.callTool (all of it)',
      () => core.callTool(modelName, { message: 'hi' }, { client: 'bench' }),
    ],
  ];
  const perStage = new Map<string, number[]>(stages.map(([k]) => [k, []]));
  for (let r = 0; r < opts.rounds; r++)
    for (const [name, fn] of rotated(stages, r)) {
      const t = performance.now();
      for (let i = 0; i < opts.perRound; i++) await fn();
      perStage.get(name)!.push(((performance.now() - t) / opts.perRound) * 1000);
    }
  return Object.fromEntries([...perStage].map(([k, v]) => [k, Math.round(summarize(v).p50)]));
}
