// Paths the benchmarks share, kept free of Mooring imports so the raw-SDK memory child loads none of it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder up with a package.json (this file also runs compiled, from bench/results/compiled/). */
function projectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('the bench found no package.json above it');
  }
}

export const ROOT = projectRoot();
export const EVERYTHING_PATH = join(
  ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const BENCH_ECHO_PATH = join(ROOT, 'test/fixtures/servers/benchEcho.mjs');
export const FLOOR_ECHO_PATH = join(ROOT, 'test/fixtures/servers/benchEchoFloor.mjs');

/**
 * Mooring spawns each server in its own process group and session (`detached`, i.e. setsid), and on
 * Linux with sched_autogroup each session is its own CPU-scheduling group: on a loaded machine those
 * children get a larger CPU share than children left in the benchmark's session. To compare like with
 * like, the raw SDK's children start through setsid(1) too, when it exists (SETSID is in the output).
 */
export const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((p) => existsSync(p));

/** How a raw SDK client starts `node <script> [args]`: through setsid when there is one, like Mooring. */
export function rawCommand(script: string, args: string[] = []): { command: string; args: string[] } {
  return SETSID
    ? { command: SETSID, args: [process.execPath, script, ...args] }
    : { command: process.execPath, args: [script, ...args] };
}
