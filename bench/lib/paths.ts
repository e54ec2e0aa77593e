// Paths the benchmarks share, kept free of Mooring imports so the raw-SDK memory child loads none of it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const EVERYTHING_PATH = join(
  ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const BENCH_ECHO_PATH = join(ROOT, 'test/fixtures/servers/benchEcho.mjs');
export const FLOOR_ECHO_PATH = join(ROOT, 'test/fixtures/servers/benchEchoFloor.mjs');
