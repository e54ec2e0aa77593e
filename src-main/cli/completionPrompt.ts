// Asks for a prompt's arguments or a resource template's variables on the terminal, with the server's
// completions (MCP 2025-11-25 "Completion"): the suggestions for what is typed so far are listed, numbered,
// and a number picks one; a value ending in `?` lists the suggestions for that prefix and asks again. Each
// field's suggestions see the fields already filled in (the request's `context`). Suggestions are server
// text: escaped (terminalText.ts).
import { MooringError } from '../core/errors';
import { terminal, type Asker } from './terminalPrompt';
import { tty } from './terminalText';

export interface AskedField {
  name: string;
  description?: string;
  required: boolean;
}

/** Suggestions for one field, given its value so far and the other fields filled in. */
export type Suggest = (field: string, value: string, context: Record<string, string>) => Promise<string[]>;

/** Suggestions shown at once; more are reached by typing a prefix and `?`. */
const SHOWN = 10;

/**
 * Fills `fields` not already in `given` by asking on the terminal. Throws `usage` when a required field
 * is missing and nobody can be asked, `cancelled` on Ctrl-C.
 */
export async function askFields(
  fields: AskedField[],
  given: Record<string, string>,
  opts: { suggest: Suggest; interactive: boolean; what: string; flag: '--arg' | '--var' },
): Promise<Record<string, string>> {
  const values = { ...given };
  const missing = fields.filter((f) => values[f.name] === undefined);
  if (!missing.length) return values;
  if (!opts.interactive) {
    const required = missing.filter((f) => f.required).map((f) => f.name);
    if (required.length)
      throw new MooringError(
        'usage',
        `${opts.what} needs ${required.map((r) => `"${r}"`).join(', ')}`,
        `Give ${required.length > 1 ? 'each' : 'it'}: ${required.map((r) => `${opts.flag} ${r}=VALUE`).join(' ')} (or run in a terminal to be asked, with suggestions).`,
      );
    return values;
  }
  const r = await terminal.dialog<Record<string, string>>(async (ask) => {
    for (const f of missing) {
      const v = await askOne(ask, f, values, opts.suggest);
      if (v === null) return { ok: false, why: 'interrupted' };
      if (v !== '') values[f.name] = v;
    }
    return { ok: true, value: values };
  });
  if (!r.ok) throw new MooringError('cancelled', `${opts.what} was not run`);
  return r.value;
}

async function askOne(
  ask: Asker,
  f: AskedField,
  context: Record<string, string>,
  suggest: Suggest,
): Promise<string | null> {
  let prefix = '';
  for (;;) {
    const list = await suggest(f.name, prefix, context).catch(() => [] as string[]);
    if (list.length) {
      ask.say(tty`suggestions for ${f.name}${prefix ? ` starting with "${prefix}"` : ''}:\n`);
      list.slice(0, SHOWN).forEach((s, i) => ask.say(tty`  ${String(i + 1)}) ${s}\n`));
      if (list.length > SHOWN) ask.say(tty`  … ${String(list.length - SHOWN)} more: type a prefix and ?\n`);
    }
    const label = tty`${f.name}${f.description ? ` (${f.description})` : ''}${f.required ? '' : ' [optional]'}: `;
    const a = await ask.line(label);
    if (!a.ok) return null;
    const text = a.text.trim();
    if (text.endsWith('?')) {
      prefix = text.slice(0, -1);
      continue;
    }
    const n = Number(text);
    if (list.length && Number.isInteger(n) && n >= 1 && n <= Math.min(SHOWN, list.length))
      return list[n - 1]!;
    if (!text && f.required) {
      ask.say(tty`${f.name} is required.\n`);
      continue;
    }
    return text;
  }
}
