// Runs the real `mooring` command (bin/mooring.mjs) as a child process on a temp MOORING_HOME.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './servers';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `mooring ARGS…` with MOORING_HOME=home and no login-shell PATH lookup; `env` adds to (or, with
 * `unset`, removes from) this process's environment; `input` is written to its standard input (a pipe,
 * never a terminal; without it stdin is empty).
 */
export function runMooring(
  home: string,
  args: string[],
  opts: { env?: Record<string, string>; unset?: string[]; input?: string } = {},
): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    MOORING_HOME: home,
    MOORING_NO_SHELL_PATH: '1',
    ...opts.env,
  };
  for (const name of opts.unset ?? []) delete env[name];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), ...args], {
      env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    child.stdin?.end(opts.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
