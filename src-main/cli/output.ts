// How the CLI ends: one exit code per kind of outcome, errors as `error:` and `hint:` lines, or as JSON
// data with --json. An error's message can quote a server (its stderr, a tool's error): escaped.
import { MooringError, toErrorData } from '../core/errors';
import { exitCodeFor } from './exitCodes';
import { multiline, printJsonLine, say, tty } from './terminalText';

export { EXIT, exitCodeFor } from './exitCodes';

export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
  }
}

/** Prints an error the way a person (or, with json, a script) can act on, and returns its exit code. */
export function reportError(err: unknown, opts: { json?: boolean } = {}): number {
  if (err instanceof CliExit) return err.exitCode;
  const e = toErrorData(err);
  if (opts.json)
    printJsonLine({ ok: false, error: e.message, code: e.code, ...(e.hint ? { hint: e.hint } : {}) });
  else {
    say(tty`error: ${multiline(e.message)}\n`);
    if (e.hint) say(tty`hint: ${e.hint}\n`);
  }
  return exitCodeFor(e.code);
}

/** K=V pairs from repeated options. */
export function parsePairs(pairs: string[] | undefined, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs ?? []) {
    const i = p.indexOf('=');
    if (i <= 0)
      throw new MooringError(
        'usage',
        `${what} "${p}" must look like KEY=VALUE`,
        `Example: ${what} API_URL=https://example.com`,
      );
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

export const collect = (value: string, previous: string[] = []) => [...previous, value];
