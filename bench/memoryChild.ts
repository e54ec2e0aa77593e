// One side of the memory benchmark, run in its own process so neither side's heap or modules count
// against the other: `node bench/results/compiled/memoryChild.mjs mooring|sdk`, compiled for both sides
// alike by bench/lib/compiled.ts (bundled, as the product ships; neither through tsx). Opens 10 stdio
// sessions to server-everything, makes 20 calls on each, collects garbage, and prints one JSON line: this
// process's RSS and heap (the server children are not counted; they are the same for both).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EVERYTHING_PATH, rawCommand } from './lib/paths';

const mode = process.argv[2];
const SESSIONS = 10;
const gc = (globalThis as { gc?: () => void }).gc;

async function settle(): Promise<NodeJS.MemoryUsage> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
  return process.memoryUsage();
}

async function main(): Promise<void> {
  const idle = await settle();
  let close: () => Promise<unknown>;
  if (mode === 'mooring') {
    const { everything, openCore } = await import('./lib/contenders');
    const specs = Array.from({ length: SESSIONS }, (_, i) => everything(`everything${i}`));
    const { core, dispose } = await openCore(specs);
    await core.start();
    for (let i = 0; i < SESSIONS; i++)
      for (let k = 0; k < 20; k++)
        await core.tools.call(`mcp__everything${i}__echo`, { message: 'hi' }, { client: 'bench' });
    close = dispose;
  } else if (mode === 'sdk') {
    const clients = await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        const transport = new StdioClientTransport({
          ...rawCommand(EVERYTHING_PATH, ['stdio']),
          stderr: 'pipe',
        });
        transport.stderr?.on('data', () => undefined);
        const c = new Client({ name: 'bench-raw', version: '0.0.0' });
        await c.connect(transport);
        await c.listTools();
        return c;
      }),
    );
    for (const c of clients)
      for (let k = 0; k < 20; k++) await c.callTool({ name: 'echo', arguments: { message: 'hi' } });
    close = () => Promise.all(clients.map((c) => c.close()));
  } else throw new Error(`usage: memoryChild.ts mooring|sdk (got ${mode})`);
  const m = await settle();
  process.stdout.write(
    `${JSON.stringify({ mode, gc: Boolean(gc), idleRss: idle.rss, rss: m.rss, heapUsed: m.heapUsed, external: m.external })}\n`,
  );
  await close();
}

await main();
process.exit(0);
