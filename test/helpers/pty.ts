// The real `mooring` command on a real pseudo-terminal (test/fixtures/ptyDriver.py: python3's standard
// `pty`, nothing native to build), driven like a person at a keyboard: wait for a question, type an answer.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { onTestFailed, onTestFinished } from 'vitest';
import { ROOT } from './servers';

export const CTRL_C = '\x03';
export const CTRL_D = '\x04';

export interface PtyRun {
  /** Everything the command wrote to the terminal so far, carriage returns removed. */
  output(): string;
  /** The raw bytes as the terminal received them (escape sequences and all), as text. */
  raw(): string;
  /** Types on the terminal. */
  type(text: string): void;
  /**
   * Resolves when `pattern` appears after everything earlier `waitFor` calls consumed, and moves past it;
   * rejects with the whole output when the command exits first.
   */
  waitFor(pattern: string | RegExp): Promise<string>;
  /** The exit code. */
  exited: Promise<number>;
  kill(): void;
}

/** `mooring ARGS…` on a new terminal, with MOORING_HOME=home and the given environment added. */
export function mooringInPty(home: string, args: string[], env: Record<string, string> = {}): PtyRun {
  const child = spawn(
    'python3',
    [join(ROOT, 'test/fixtures/ptyDriver.py'), process.execPath, join(ROOT, 'bin/mooring.mjs'), ...args],
    {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', TERM: 'xterm', ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let raw = '';
  let cursor = 0;
  let done = false;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => {
    raw += d;
    wake();
  });
  const exited = new Promise<number>((resolve) =>
    child.on('close', (code) => {
      done = true;
      wake();
      resolve(code ?? -1);
    }),
  );
  const output = () => raw.replace(/\r/g, '');
  /** What the test waits for on this terminal now (said when it fails). */
  const awaited = new Set<string>();
  // A test that fails (a timeout included) says what it waited for and what the terminal said, in the
  // failure's own message (a CI log that keeps only its end still shows it), and leaves no command running
  // behind it to hold the test runner open.
  onTestFailed(({ task }) => {
    const waiting = [...awaited].map((p) => `waiting for ${p}; `).join('');
    const said = `${waiting}mooring ${args.join(' ')} printed on its terminal:\n${output().slice(-4000)}`;
    const error = task.result?.errors?.[0];
    if (error) error.message = `${error.message}\n\n${said}`;
    else console.error(said);
  });
  onTestFinished(() => {
    if (!done) child.kill('SIGKILL');
  });
  return {
    output,
    raw: () => raw,
    type: (text) => child.stdin.write(text),
    exited,
    kill: () => child.kill('SIGKILL'),
    waitFor(pattern) {
      const what = String(pattern);
      awaited.add(what);
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          const rest = output().slice(cursor);
          const m =
            typeof pattern === 'string' ? { index: rest.indexOf(pattern), 0: pattern } : pattern.exec(rest);
          if (m && m.index !== undefined && m.index >= 0) {
            waiters.delete(check);
            awaited.delete(what);
            cursor += m.index + m[0].length;
            resolve(m[0]);
          } else if (done) {
            waiters.delete(check);
            awaited.delete(what);
            reject(
              new Error(`the command exited before ${String(pattern)} appeared; it printed:\n${output()}`),
            );
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}
