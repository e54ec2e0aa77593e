// Conversation titles from the conversation's own model (ARCHITECTURE.md, `agent/`, "Conversation titles"):
// a new conversation is titled with its first message's words at once; after its first answer the same
// provider and model are asked, in the background, for a title of a few words, which replaces them. It
// never delays or fails the turn: on any failure (an HTTP error, no answer within the time limit, an empty
// answer) the first words stay and one line goes to the log. A title the person chose is never replaced
// (conversationStore.ts counts a model title only while the title is still the first words). The setting
// `titlesFromModel` (Settings > Models) turns it off; on, it costs one small request per conversation.
import type { ChatEvent, ChatMessage } from '@shared/chat';
import type { LogLine } from '@shared/session';
import { UNSAFE_CHARS } from '@shared/untrustedText';
import { toErrorData } from '../errors';
import type { ChatTurnResult } from './chatTurn';
import type { ConversationStore } from './conversationStore';
import type { ChatProvider } from './providers/types';

/** What the model is told. Test fixtures recognise a title request by "a title of at most 6 words". */
export const TITLE_INSTRUCTION =
  'You name conversations. Reply with a title of at most 6 words for the conversation below, in the ' +
  'language it is written in. Reply with the title only: no quotes, no Markdown, no final period.';

/** How long the model has to answer before the first words stay. */
export const TITLE_TIMEOUT_MS = 15_000;
/** The longest title kept, in characters. */
export const MAX_MODEL_TITLE = 60;
/** What of each side of the exchange the model is sent: enough to name it, small enough to be cheap. */
const EXCHANGE_CHARS = 1500;
/** An answer past this is not a title: the request stops there. */
const MAX_ANSWER_CHARS = 1000;

/**
 * The model's answer as a title, or '' when nothing usable is left. The answer is untrusted text: a
 * reasoning block, Markdown, quotes, a "Title:" label, control and bidi characters and extra lines go;
 * spaces collapse; the result is cut at a word near MAX_MODEL_TITLE characters.
 */
export function sanitizeTitle(answer: string): string {
  const withoutThinking = answer.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '');
  for (const raw of withoutThinking.split(/\r\n|[\n\r\u2028\u2029\u0085]/)) {
    const line = cleanLine(raw);
    if (line) return cap(line);
  }
  return '';
}

const QUOTES = `"'\`“”‘’„‚«»‹›「」『』`;
const EDGE_QUOTES = new RegExp(`^[${QUOTES}\\s]+|[${QUOTES}\\s]+$`, 'gu');

function cleanLine(raw: string): string {
  let s = raw.replace(/\t/g, ' ').replace(UNSAFE_CHARS, '');
  s = s
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url), ![alt](src)
    .replace(/^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)+/, '') // heading, quote, list marker
    .replace(/(\*\*|__|~~|`+)/g, '')
    .replace(/(^|[\s(])[*_]+(?=\S)|(?<=\S)[*_]+(?=$|[\s).,!?:;])/g, '$1'); // *emphasis*, _emphasis_
  s = s.replace(/\s+/g, ' ').trim();
  s = s.replace(/^(conversation\s+)?title\s*[:：-]\s*/i, '');
  // Quotes around a final period, or a period after closing quotes: strip both until neither is left.
  for (let before = ''; before !== s;) [before, s] = [s, s.replace(EDGE_QUOTES, '').replace(/[.。]+$/u, '')];
  return s.replace(/\s+/g, ' ').trim();
}

/** At most MAX_MODEL_TITLE characters (code points), cut at a space when one is near the end. */
function cap(title: string): string {
  const chars = Array.from(title);
  if (chars.length <= MAX_MODEL_TITLE) return title;
  const cut = chars.slice(0, MAX_MODEL_TITLE - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_MODEL_TITLE / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const textOf = (m: ChatMessage | undefined): string => {
  if (!m) return '';
  if (m.role === 'user') return m.content.map((p) => (p.type === 'text' ? p.text : '[an image]')).join('\n');
  return m.role === 'assistant' || m.role === 'tool' || m.role === 'note' ? m.text : '';
};
const clip = (s: string) => (s.length > EXCHANGE_CHARS ? `${s.slice(0, EXCHANGE_CHARS)}…` : s);

/**
 * Asks the model for a title of this exchange: one request without tools, its answer collected as it
 * streams and made safe. Throws what the provider throws (the signal's reason when it aborts).
 */
export async function askForTitle(opts: {
  provider: ChatProvider;
  model: string;
  question: string;
  answer: string;
  signal: AbortSignal;
}): Promise<string> {
  const enough = new AbortController();
  const signal = AbortSignal.any([opts.signal, enough.signal]);
  const exchange =
    `The person wrote:\n${clip(opts.question.trim()) || '[an image]'}\n\n` +
    `The assistant answered:\n${clip(opts.answer.trim()) || '[no text]'}`;
  let text = '';
  try {
    for await (const ev of opts.provider.stream({
      model: opts.model,
      system: TITLE_INSTRUCTION,
      messages: [{ role: 'user', content: [{ type: 'text', text: exchange }] }],
      tools: [],
      signal,
    })) {
      if (ev.type !== 'text') continue;
      text += ev.text;
      if (text.length > MAX_ANSWER_CHARS) {
        enough.abort();
        break;
      }
    }
  } catch (err) {
    if (!enough.signal.aborted) throw err;
  }
  return sanitizeTitle(text);
}

export interface ConversationTitlesDeps {
  store: ConversationStore;
  /** The setting `titlesFromModel`, read at each turn. */
  enabled: () => boolean;
  /** One line per title that could not be had (the Logs screen, as Mooring's own). */
  log: (line: LogLine) => void;
  timeoutMs?: number;
}

export interface TitleAfterTurn {
  conversationId: string;
  provider: ChatProvider;
  model: string;
  /** The turn that just completed. */
  result: ChatTurnResult;
  /** Gets `{ type: 'title' }` once the new title is saved. */
  onEvent?: (event: ChatEvent) => void;
}

/**
 * The one place a conversation is named by its model, for every host that runs turns (the app, browser
 * mode, `mooring chat`, `mooring serve`'s start_session). Jobs run in the background; `settled` waits for
 * them (a command that exits after its turn), `close` stops them.
 */
export class ConversationTitles {
  private readonly pending = new Set<Promise<void>>();
  private readonly closing = new AbortController();

  constructor(private readonly deps: ConversationTitlesDeps) {}

  /** After a completed turn: names the conversation if this was its first answer. Never throws. */
  afterTurn(t: TitleAfterTurn): void {
    if (!this.deps.enabled() || this.closing.signal.aborted) return;
    const job = this.run(t)
      .catch((err: unknown) => this.failed(t, toErrorData(err).message))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once every title job has ended (each is bounded by the time limit). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  close(): void {
    this.closing.abort();
  }

  private async run(t: TitleAfterTurn): Promise<void> {
    const cid = t.conversationId;
    if (!(await this.stillFirstWords(t))) return;
    const timeoutMs = this.deps.timeoutMs ?? TITLE_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    let title: string;
    try {
      title = await askForTitle({
        provider: t.provider,
        model: t.model,
        question: textOf(t.result.steps[0]),
        answer: t.result.message.text,
        signal: AbortSignal.any([timeout, this.closing.signal]),
      });
    } catch (err) {
      if (this.closing.signal.aborted) return;
      if (timeout.aborted) {
        const limit = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`;
        return this.failed(t, `no answer within ${limit}`);
      }
      throw err;
    }
    if (!title) return this.failed(t, 'the answer held no usable title');
    // The person may have renamed it while the model thought (the store ignores a late model title anyway).
    if (!(await this.stillFirstWords(t))) return;
    await this.deps.store.setModelTitle(cid, title);
    // Announced only when it stands: a rename between the check and the write wins on load, and then
    // the header and `mooring chat` must not show the model's title.
    const after = await this.deps.store.load(cid);
    if (after.titleSource !== 'model' || after.summary.title !== title) return;
    t.onEvent?.({ type: 'title', conversationId: cid, title });
  }

  /** The title is still the first words, and this turn gave the conversation its first answer. */
  private async stillFirstWords(t: TitleAfterTurn): Promise<boolean> {
    const { titleSource, messages } = await this.deps.store.load(t.conversationId);
    if (titleSource !== 'first-words') return false;
    const at = messages.findIndex((m) => m.id === t.result.steps[0]?.id);
    return at >= 0 && !messages.slice(0, at).some((m) => m.role === 'assistant' && !m.cancelled);
  }

  private failed(t: TitleAfterTurn, why: string): void {
    const reason = why.replace(/\s+/g, ' ').trim();
    this.deps.log({
      server: 'mooring',
      at: Date.now(),
      source: 'host',
      level: 'warning',
      text: `conversation title: ${t.provider.id}:${t.model} gave none for ${t.conversationId} (${reason}); it keeps its first words`,
    });
  }
}
