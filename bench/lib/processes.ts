// Whole processes timed from outside, for the suites that measure what a user waits for: a command's
// cold start, a one-shot call end to end and its close, a server's idle memory.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcessRun {
  /** Spawn → exit. */
  ms: number;
  /** Spawn → the first byte on stdout (a one-shot command prints its result, then closes). */
  firstOutputMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` to its end and times it; a non-zero exit is an error (a benchmark of failures is none). */
export function timeProcess(
  command: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let firstOutputMs = Number.NaN;
    let exitMs = Number.NaN;
    let stdout = '';
    let stderr = '';
    const child = spawn(command, args, {
      env: opts.env ?? process.env,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => {
      if (Number.isNaN(firstOutputMs)) firstOutputMs = performance.now() - t0;
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', () => (exitMs = performance.now() - t0));
    child.once('error', reject);
    child.once('close', (code) => {
      const run = { ms: exitMs, firstOutputMs, code, stdout, stderr };
      if (code === 0) resolve(run);
      else reject(new Error(`${[command, ...args].join(' ')} exited ${code}: ${stderr.slice(-500)}`));
    });
  });
}

/** Resident memory of a live process, from /proc (Linux); undefined elsewhere. */
export function rssBytes(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** A home for the compiled CLI with these stdio servers configured (written the way `mooring mcp add` would). */
export function writeServersFile(
  home: string,
  servers: { name: string; script: string; args?: string[] }[],
): void {
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      // `node` by name, as a user writes it (and as the CLI tests do).
      servers: servers.map((s) => ({ name: s.name, command: 'node', args: [s.script, ...(s.args ?? [])] })),
    }),
  );
}
