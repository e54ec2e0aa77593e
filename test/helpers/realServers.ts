// Real servers for the catalog's tests: a SessionPool over configs from test/helpers, and the gated
// call path over it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '@shared/config';
import { callTarget } from '../../src-main/core/calls/callTarget';
import { runToolCall } from '../../src-main/core/calls/toolCallRunner';
import type { CatalogServerInput, ToolCatalog } from '../../src-main/core/catalog/catalog';
import { SessionPool } from '../../src-main/core/mcp/sessionPool';
import { ApprovalBroker } from '../../src-main/core/safety/approvalBroker';
import { ApprovalStore } from '../../src-main/core/safety/approvalStore';
import { AuditLog } from '../../src-main/core/safety/auditLog';

export async function startServers(
  configs: ServerConfig[],
): Promise<{ pool: SessionPool; inputs: () => CatalogServerInput[] }> {
  const pool = new SessionPool();
  await pool.sync(configs);
  for (const c of configs) {
    const st = pool.get(c.name)?.status();
    if (st?.state !== 'ready')
      throw new Error(`server ${c.name} did not start: ${JSON.stringify(st?.error)}`);
  }
  const inputs = () =>
    configs.map((config) => ({ server: config.name, config, tools: pool.get(config.name)?.tools() ?? [] }));
  return { pool, inputs };
}

/**
 * The one gated call path over a test pool and catalog (calls/toolCallRunner.ts): name → entry → target → safety
 * (approved up front, as the CLI's --yes; audited in a scratch folder) → session → normalised result.
 * Tests call tools only this way: nothing reaches a server past authorizeCall.
 */
export async function gatedCaller(pool: SessionPool, catalog: () => ToolCatalog) {
  const dir = mkdtempSync(join(tmpdir(), 'mooring-gate-'));
  const gate = {
    store: await ApprovalStore.open(dir),
    broker: new ApprovalBroker(),
    audit: new AuditLog(dir),
    yolo: () => false,
  };
  let seq = 0;
  const call = (name: string, args: unknown) => {
    const c = catalog();
    const entry = c.get(name) ?? c.resolve(name);
    return runToolCall(
      { gate, broker: gate.broker, publish: (e) => ({ ...e, seq: ++seq }) },
      callTarget(entry, pool.get(entry.server)),
      args,
      { client: 'test', preApproved: true },
    );
  };
  return { call, close: () => gate.audit.close() };
}
