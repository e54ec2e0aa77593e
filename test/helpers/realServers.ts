// Real servers for the catalog's tests: the lead's SessionPool over configs from test/helpers.
import type { ServerConfig } from '@shared/config';
import { SessionPool } from '../../src-main/core/mcp/sessionPool';
import type { CatalogServerInput } from '../../src-main/core/catalog/catalog';

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
