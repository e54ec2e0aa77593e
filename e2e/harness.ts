// Starts `mooring web --json` as a real child process on a temp MOORING_HOME and reads its one URL. That is
// the compiled CLI (bin/mooring.mjs → out/main/cli.js) serving the built renderer, as users run it; the
// global setup (test/globalSetup.ts) builds out/ first when it is stale, and the harness refuses to run an
// old build if it is stale anyway (a source saved while the suite runs).
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
// @ts-expect-error -- a plain .mjs helper shared with scripts/start.mjs
import { buildIsStale } from '../scripts/buildFreshness.mjs';

export const ROOT = resolve(import.meta.dirname, '..');
export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = join(ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
/** The MCP Apps fixture (test/fixtures/servers/appsServer.ts) as a server entry named `apps`. */
export const APPS_SERVER = {
  name: 'apps',
  command: 'node',
  args: [join(ROOT, 'test/fixtures/runTs.mjs'), join(ROOT, 'test/fixtures/servers/appsServer.ts')],
};

export interface RunningWeb {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then wait for the exit (the command closes every session first). */
  stop(): Promise<number | null>;
}

/**
 * `mooring web` on `home`. `env` is added to the child's environment; a variable set to undefined there is
 * removed (e.g. XDG_CONFIG_HOME, for a fixture HOME laid out as a Linux home).
 */
export async function startMooringWeb(
  home: string,
  opts: { env?: Record<string, string | undefined> } = {},
): Promise<RunningWeb> {
  if ((buildIsStale as (root: string) => boolean)(ROOT))
    throw new Error(
      'out/ is older than the sources: `npm run build` (the global setup does it before a run)',
    );
  const env: NodeJS.ProcessEnv = { ...process.env, MOORING_HOME: home };
  for (const [k, v] of Object.entries(opts.env ?? {}))
    if (v === undefined) delete env[k];
    else env[k] = v;
  const child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'web', '--json', '--no-open'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // If the test run dies before afterAll, still ask the command to close its sessions.
  const onExit = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', onExit);
  child.once('exit', () => process.off('exit', onExit));
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const url = await new Promise<string>((res, rej) => {
    let out = '';
    const timer = setTimeout(() => rej(new Error(`mooring web printed no URL in 30 s: ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        res((JSON.parse(line) as { url: string }).url);
      }
    });
    child.once('exit', (code) => rej(new Error(`mooring web exited (${code}): ${err}`)));
  });
  return {
    url,
    child,
    stderr: () => err,
    stop: () =>
      new Promise((res) => {
        if (child.exitCode !== null) return res(child.exitCode);
        child.once('exit', (code) => res(code));
        child.kill('SIGTERM');
      }),
  };
}

/** Descendant PIDs of `pid` whose command line contains `needle` (Linux /proc). */
export function descendants(pid: number, needle: string): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parent.set(Number(name), ppid);
    } catch {
      /* gone */
    }
  }
  const isDescendant = (p: number): boolean => {
    for (let q = parent.get(p); q !== undefined && q > 1; q = parent.get(q)) if (q === pid) return true;
    return false;
  };
  return [...parent.keys()].filter((p) => {
    if (!isDescendant(p)) return false;
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  });
}

/** Whether the process runs (a zombie has ended: only its parent has not read its exit yet). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
