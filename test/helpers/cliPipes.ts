// The real `mooring` command the way a script runs it: its output piped into `head -1` (bash with pipefail,
// so the exit code is mooring's), or read whole as JSON; and what a user must never see on a terminal.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './servers';

export const BIN = join(ROOT, 'bin/mooring.mjs');

export interface PipedRun {
  code: number;
  /** What `head -1` printed. */
  first: string;
  stderr: string;
}

export interface PipeOptions {
  env?: Record<string, string>;
  /** Variables taken out of this process's environment. */
  unset?: string[];
  /** Called with each chunk of mooring's stderr as it comes (a sign-in URL to follow). */
  onStderr?: (text: string) => void;
  /** The reader after the pipe; default `head -1`. `true` closes the pipe before mooring writes anything. */
  reader?: string;
}

/** `mooring ARGS | head -1` with MOORING_HOME=home, stdin empty (no terminal). */
export function pipedToHead(home: string, args: string[], opts: PipeOptions = {}): Promise<PipedRun> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    MOORING_HOME: home,
    MOORING_NO_SHELL_PATH: '1',
    ...opts.env,
  };
  for (const name of opts.unset ?? []) delete childEnv[name];
  const child = spawn(
    'bash',
    ['-o', 'pipefail', '-c', `"$0" "$@" | ${opts.reader ?? 'head -1'}`, process.execPath, BIN, ...args],
    { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let first = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (first += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    opts.onStderr?.(d.toString());
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, first, stderr })));
}

/** A Node stack trace, an unhandled error report or a raw EPIPE: what no command may print. */
export const STACK_TRACE = /\n\s+at .+[:(]\d+:\d+\)?|Unhandled|node:internal|Error: write EPIPE|Node\.js v\d/;

/** No D-Bus session and no display: libsecret reaches no Secret Service, so every run has no keychain. */
export const NO_KEYCHAIN = ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY'];
