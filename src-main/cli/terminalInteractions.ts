// What servers ask the person at a `mooring chat` or `mooring mcp call` terminal (spec 2025-11-25 "Sampling"
// and "Elicitation"; a 2026-07-28 server's input_required rounds reach the same handlers):
// a sampling request is shown (system prompt, messages, token cap, the server's hourly budget) and sent to
// the user's model only after a yes — the CLI's --yes never approves sampling; a form elicitation becomes
// one question per field, typed from the requested schema, defaults shown, a bad value asked again. With
// no terminal, every request is declined at once with a line saying why, instead of waiting unseen until
// the server gives up. A link (URL elicitation) is never offered here: the CLI opens no browser.
import type {
  ElicitationFieldSchema,
  ElicitationFormInteraction,
  Interaction,
  SamplingContentView,
  SamplingInteraction,
} from '@shared/interactions';
import { completeElicitationContent, type ElicitValue } from '../core/clientFeatures/elicitationContent';
import { MooringError } from '../core/errors';
import { eachParked } from '../core/safety/pendingRequests';
import type { MooringCore } from '../core/mooringCore';
import { askAbout } from './terminalRequests';
import { multiline, say, tty } from './terminalText';
import { terminal, type Asker, type DialogResult, type Ended } from './terminalPrompt';

const NOUN: Record<Interaction['kind'], string> = {
  sampling: 'a completion from your model (sampling)',
  'elicitation-form': 'some input (a form)',
  'elicitation-url': 'a link to be opened',
};

/** `user:cli` when the person said no; `cli:no-terminal` when nobody could be asked (in the server's log). */
const decline = (kind: Interaction['kind'], decidedBy = 'user:cli') =>
  kind === 'sampling' ? { kind, outcome: 'decline', decidedBy } : { kind, action: 'decline', decidedBy };

/**
 * Answers the servers' sampling and form requests on this terminal (one at a time, queued with the
 * approvals), or — when nobody can be asked — declines each at once and says so. Returns the stop function.
 */
export function answerInteractionsOnTerminal(
  core: Pick<MooringCore, 'interactions'>,
  opts: { interactive: boolean },
): () => void {
  const broker = core.interactions;
  const onRequest = (req: Interaction) => {
    if (!opts.interactive || req.kind === 'elicitation-url') {
      const why = opts.interactive
        ? 'Mooring opens no browser from the terminal'
        : 'there is no terminal to ask';
      // A link is judged by where it goes: its host is named.
      const what = req.kind === 'elicitation-url' ? `a link to ${req.host} to be opened` : NOUN[req.kind];
      say(tty`mooring: ${req.server} asked for ${what}; declined: ${why}.\n`);
      // After the broker's own `requested` bookkeeping: the answer settles the parked request.
      queueMicrotask(() => {
        try {
          broker.answer(req.id, decline(req.kind, opts.interactive ? 'cli:no-browser' : 'cli:no-terminal'));
        } catch {
          // Already ended (cancelled by the server): nothing to decline.
        }
      });
      return;
    }
    void askAbout({
      broker,
      request: req,
      label: tty`the request from ${req.server}`,
      dialog: req.kind === 'sampling' ? samplingDialog(req) : formDialog(req),
      interrupted:
        req.kind === 'sampling'
          ? decline('sampling')
          : { kind: 'elicitation-form', action: 'cancel', decidedBy: 'user:cli' },
    });
  };
  const release = opts.interactive ? terminal.hold() : () => undefined;
  // Like approvals (terminalRequests.ts): a request parked before this was called is answered too.
  const stop = eachParked(broker, onRequest);
  return () => {
    stop();
    release();
  };
}

// ---- sampling ------------------------------------------------------------------------------------

function contentText(c: SamplingContentView | SamplingContentView[]): string {
  return (Array.isArray(c) ? c : [c])
    .map((b) =>
      b.type === 'text' && typeof b.text === 'string'
        ? b.text
        : `[${b.type}${b.mimeType ? ` ${b.mimeType}` : ''}]`,
    )
    .join('\n');
}

function samplingDialog(req: SamplingInteraction): (ask: Asker) => Promise<DialogResult<unknown>> {
  return async (ask) => {
    const r = req.request;
    const hours = req.budget.windowMs / 3_600_000;
    ask.say(tty`\n${req.server} asks your model for a completion (sampling).\n`);
    if (r.systemPrompt) ask.say(tty`system prompt: ${multiline(r.systemPrompt)}\n`);
    for (const m of r.messages) ask.say(tty`${m.role}: ${multiline(contentText(m.content))}\n`);
    const hints = r.modelPreferences?.hints?.map((h) => h.name).filter(Boolean) ?? [];
    ask.say(
      tty`up to ${r.maxTokens} tokens` +
        (r.temperature !== undefined ? tty`, temperature ${r.temperature}` : '') +
        (hints.length ? tty`, model hints: ${hints.join(', ')}` : '') +
        (r.includeContext && r.includeContext !== 'none'
          ? tty`, asks for context: ${r.includeContext}`
          : '') +
        '\n',
    );
    ask.say(
      tty`budget: ${req.budget.usedTokens} of ${req.budget.limitTokens} tokens used in the last ${hours === 1 ? 'hour' : `${hours} hours`}\n`,
    );
    const a = await ask.confirm('Send it to your model?');
    if (!a.ok) return a;
    return {
      ok: true,
      value: { kind: 'sampling', outcome: a.yes ? 'approve' : 'decline', decidedBy: 'user:cli' },
    };
  };
}

// ---- form elicitation ----------------------------------------------------------------------------

interface Choice {
  value: string;
  title: string;
}

/** The options of a single- or multi-select field, with their titles (SEP-1330 titled enums included). */
function choices(field: ElicitationFieldSchema): Choice[] | undefined {
  if (field.oneOf) return field.oneOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  if (field.enum) return field.enum.map((v, i) => ({ value: v, title: field.enumNames?.[i] ?? v }));
  const items = field.items;
  if (items?.anyOf) return items.anyOf.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  if (items?.enum) return items.enum.map((v) => ({ value: v, title: v }));
  return undefined;
}

function describeDefault(field: ElicitationFieldSchema, options: Choice[] | undefined): string | undefined {
  const d = field.default;
  if (d === undefined || d === null) return undefined;
  const title = (v: unknown) => options?.find((o) => o.value === v)?.title ?? String(v);
  if (Array.isArray(d)) return d.map(title).join(', ');
  if (typeof d === 'boolean') return d ? 'yes' : 'no';
  return title(d);
}

type Parsed = { ok: true; value: ElicitValue | undefined } | { ok: false; error: string };

/** One typed answer → the field's value; empty means "use the default / leave out". */
function parseField(field: ElicitationFieldSchema, text: string, options: Choice[] | undefined): Parsed {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const pick = (token: string): string | undefined => {
    const n = Number(token);
    if (options && Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1]!.value;
    return options?.find((o) => o.value === token || o.title.toLowerCase() === token.toLowerCase())?.value;
  };
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(t)) return { ok: true, value: true };
      if (/^(n|no|false)$/i.test(t)) return { ok: true, value: false };
      return { ok: false, error: 'answer y or n' };
    case 'number':
    case 'integer': {
      const n = Number(t);
      if (!Number.isFinite(n)) return { ok: false, error: 'enter a number' };
      return { ok: true, value: n };
    }
    case 'array': {
      const tokens = t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const values = tokens.map((tok) => (options ? pick(tok) : tok));
      const bad = tokens.filter((_, i) => values[i] === undefined);
      if (bad.length) return { ok: false, error: `not an option: ${bad.join(', ')}` };
      return { ok: true, value: values as string[] };
    }
    default: {
      if (!options) return { ok: true, value: t };
      const v = pick(t);
      return v === undefined ? { ok: false, error: `not an option: ${t}` } : { ok: true, value: v };
    }
  }
}

/** Checks one field against its own definition with the same validator the answer goes through. */
function checkField(
  key: string,
  field: ElicitationFieldSchema,
  required: boolean,
  value: ElicitValue | undefined,
): string | undefined {
  if (required && value === undefined && field.default === undefined) return 'an answer is required';
  try {
    completeElicitationContent(
      { type: 'object', properties: { [key]: field }, ...(required ? { required: [key] } : {}) },
      value === undefined ? {} : { [key]: value },
    );
    return undefined;
  } catch (err) {
    if (!(err instanceof MooringError)) return String(err);
    // "The form is not valid: Title (key): problem." → "problem" (the field is on screen already).
    const label = field.title ? `${field.title} (${key})` : key;
    return err.message.replace('The form is not valid: ', '').replace(`${label}: `, '').replace(/\.$/, '');
  }
}

async function askField(
  ask: Asker,
  f: { key: string; field: ElicitationFieldSchema; required: boolean },
): Promise<{ ok: true; value: ElicitValue | undefined } | Ended> {
  const { key, field, required } = f;
  const options = choices(field);
  const title = field.title ? tty`${field.title} (${key})` : tty`${key}`;
  ask.say(tty`\n${title}${required ? ' — required' : ''}\n`);
  if (field.description) ask.say(tty`  ${field.description}\n`);
  options?.forEach((o, i) =>
    ask.say(tty`  ${i + 1}) ${o.title}${o.title !== o.value ? ` [${o.value}]` : ''}\n`),
  );
  const kind =
    field.type === 'array'
      ? 'numbers, separated by commas'
      : options
        ? 'a number or a value'
        : field.type === 'boolean'
          ? 'y/n'
          : field.format
            ? tty`${field.type}, ${field.format}`
            : tty`${field.type}`;
  const shown = describeDefault(field, options);
  const question = tty`${key} (${kind})${shown !== undefined ? ` [default: ${shown}]` : ''}: `;
  for (;;) {
    const line = await ask.line(question);
    if (!line.ok) return line;
    const parsed = parseField(field, line.text, options);
    if (!parsed.ok) {
      ask.say(tty`  ${parsed.error}; try again (Ctrl-C cancels the form)\n`);
      continue;
    }
    const problem = checkField(key, field, required, parsed.value);
    if (problem) {
      ask.say(tty`  ${problem}; try again (Ctrl-C cancels the form)\n`);
      continue;
    }
    return parsed;
  }
}

function formDialog(req: ElicitationFormInteraction): (ask: Asker) => Promise<DialogResult<unknown>> {
  return async (ask) => {
    ask.say(tty`\n${req.server} asks for input: ${multiline(req.message)}\n`);
    const start = await ask.confirm('Answer it? (no declines)');
    if (!start.ok) return start;
    if (!start.yes)
      return { ok: true, value: { kind: 'elicitation-form', action: 'decline', decidedBy: 'user:cli' } };
    const required = new Set(req.requestedSchema.required ?? []);
    const content: Record<string, ElicitValue> = {};
    for (const [key, field] of Object.entries(req.requestedSchema.properties ?? {})) {
      const a = await askField(ask, { key, field, required: required.has(key) });
      if (!a.ok) return a;
      if (a.value !== undefined) content[key] = a.value;
    }
    return {
      ok: true,
      value: { kind: 'elicitation-form', action: 'accept', content, decidedBy: 'user:cli' },
    };
  };
}
