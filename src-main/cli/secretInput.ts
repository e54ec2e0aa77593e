// Secret values for `mooring mcp add --secret-env NAME` / `--secret-header NAME`: never on the command line,
// where every user of the machine reads them in the process list (`ps`). On a terminal each value is asked
// with a hidden prompt; from a script it is read from standard input, one line per secret in the order the
// options were given. NAME=VALUE still works, with a warning, so existing scripts keep running.
import { MooringError } from '../core/errors';
import { terminal } from './terminalPrompt';
import { say, tty } from './terminalText';

export interface SecretValues {
  env: Record<string, string>;
  headers: Record<string, string>;
}

/** Standard input, whole, as lines (secrets piped in by a script). */
export async function readStdinLines(): Promise<string[]> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text.split(/\r?\n/);
}

interface Wanted {
  flag: '--secret-env' | '--secret-header';
  name: string;
  value?: string;
}

function parseGiven(flag: Wanted['flag'], given: string): Wanted {
  const i = given.indexOf('=');
  if (i === 0 || given === '')
    throw new MooringError('usage', `${flag} needs a NAME`, `e.g. ${flag} API_KEY`);
  return i > 0 ? { flag, name: given.slice(0, i), value: given.slice(i + 1) } : { flag, name: given };
}

/**
 * The values of `--secret-env` and `--secret-header` options (each NAME or NAME=VALUE): asked with a
 * hidden prompt on a terminal, else read from standard input, one line each, env first, in order.
 */
export async function readSecretValues(given: { env?: string[]; headers?: string[] }): Promise<SecretValues> {
  const wanted = [
    ...(given.env ?? []).map((g) => parseGiven('--secret-env', g)),
    ...(given.headers ?? []).map((g) => parseGiven('--secret-header', g)),
  ];
  for (const w of wanted)
    if (w.value !== undefined)
      say(
        tty`warning: the value of ${w.name} was on the command line, where other users can read it (ps); next time use ${w.flag} ${w.name} and type it when asked, or pipe it in\n`,
      );
  const missing = wanted.filter((w) => w.value === undefined);
  if (missing.length && terminal.available) {
    for (const w of missing) {
      const value = await terminal.line(tty`${w.name} (hidden, not echoed): `, { hidden: true });
      if (value === null) throw new MooringError('cancelled', 'Nothing was added.');
      w.value = value;
    }
  } else if (missing.length) {
    const lines = await readStdinLines();
    missing.forEach((w, i) => (w.value = lines[i]));
    if (missing.some((w) => !w.value))
      throw new MooringError(
        'usage',
        `Expected ${missing.length} secret value(s) on standard input, one line each, in this order: ${missing.map((w) => w.name).join(', ')}`,
        `e.g. printf '%s\\n' "$API_KEY" | mooring mcp add NAME ${missing[0]!.flag} ${missing[0]!.name} -- COMMAND`,
      );
  }
  const out: SecretValues = { env: {}, headers: {} };
  for (const w of wanted) {
    if (!w.value)
      throw new MooringError(
        'usage',
        `The value of ${w.name} is empty; nothing was added.`,
        'Type the secret when asked.',
      );
    (w.flag === '--secret-env' ? out.env : out.headers)[w.name] = w.value;
  }
  return out;
}
