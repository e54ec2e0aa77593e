// Tool results too large for the model (docs/chat.md, "Results too large for the model"). The conversation
// keeps every result whole (the UI shows it whole); what the model is sent of one is at most `resultChars`:
// the first part, the size and a reference, and the built-in `read_result` tool pages through the rest (an
// offset and a length, or a search). All results of one request together stay under `requestChars`: the
// oldest are left out first, each replaced by a line saying how to read it again.
import type { ChatMessage, ToolChatMessage } from '@shared/chat';
import type { ModelTool } from './providers/types';
import type { ToolOutcome } from './toolRuntime';

export const READ_RESULT = 'read_result';

/**
 * Characters per token when a context window is turned into characters: English runs about 4, JSON and code
 * nearer 3, so 3 keeps a request inside the window for either.
 */
export const CHARS_PER_TOKEN = 3;

export interface ResultLimits {
  /** What one result may put into a request. */
  resultChars: number;
  /** What all the results of one request may put into it together. */
  requestChars: number;
}

/** The limits for a model: a share of its context window (a setting), or a fixed number of characters. */
export function resultLimits(o: { contextTokens: number; share: number; maxChars?: number }): ResultLimits {
  const contextChars = o.contextTokens * CHARS_PER_TOKEN;
  const resultChars = o.maxChars ?? Math.floor(contextChars * o.share);
  return { resultChars, requestChars: Math.max(resultChars, Math.floor(contextChars / 2)) };
}

const size = (n: number) =>
  n >= 1_048_576 ? `${(n / 1_048_576).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
const chars = (n: number) => n.toLocaleString('en-US');

/** The text of one result as the model gets it: whole, or its first part and how to read the rest. */
export function cutResult(m: Pick<ToolChatMessage, 'text' | 'toolCallId'>, limits: ResultLimits): string {
  const n = m.text.length;
  if (n <= limits.resultChars) return m.text;
  const notice = (head: number) =>
    `\n[… this result is ${chars(n)} characters (${size(n)}); you see the first ${chars(head)}. Read on with ${READ_RESULT} {"ref":"${m.toolCallId}","offset":${head}}, add "length" for how much, or give "query" to search in it.]`;
  const head = Math.max(0, limits.resultChars - notice(n).length);
  return m.text.slice(0, head) + notice(head);
}

/** What stands for a result left out of a request to keep it within the model's context. */
export function leftOutResult(m: Pick<ToolChatMessage, 'text' | 'toolCallId' | 'name'>): string {
  return m.name === READ_RESULT
    ? `[A page read earlier, left out to keep this request within your context window.]`
    : `[The result of ${m.name} (${chars(m.text.length)} characters) is left out to keep this request within your context window; read it with ${READ_RESULT} {"ref":"${m.toolCallId}"} if you still need it.]`;
}

/** Whether a conversation holds a result the model cannot get whole: then `read_result` is offered. */
export function needsReadResult(messages: ChatMessage[], limits: ResultLimits): boolean {
  let total = 0;
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    if (m.text.length > limits.resultChars) return true;
    total += m.text.length;
  }
  return total > limits.requestChars;
}

export const readResultTool = (limits: ResultLimits): ModelTool => ({
  name: READ_RESULT,
  description: `Reads part of an earlier tool result that was too large to send whole (its notice gives the ref). Give "offset" and "length" (characters, at most ${chars(pageChars(limits))}) to read a page, or "query" to find a text in it (the matches with their offsets).`,
  inputSchema: {
    type: 'object',
    properties: {
      ref: { type: 'string', description: 'The ref from the notice of the cut result' },
      offset: { type: 'integer', minimum: 0, description: 'Where to start, in characters (default 0)' },
      length: { type: 'integer', minimum: 1, description: 'How many characters to read' },
      query: { type: 'string', description: 'A text to find in the result (case-insensitive)' },
    },
    required: ['ref'],
  },
});

const pageChars = (limits: ResultLimits) => Math.max(200, limits.resultChars - 300);
const MAX_MATCHES = 20;
const AROUND = 150;

/** Answers a `read_result` call from the conversation's own messages: a page, or the matches of a search. */
export function readResult(
  messages: ChatMessage[],
  args: Record<string, unknown>,
  limits: ResultLimits,
): ToolOutcome {
  const ref = typeof args.ref === 'string' ? args.ref : '';
  const target = messages.findLast((m): m is ToolChatMessage => m.role === 'tool' && m.toolCallId === ref);
  if (!target)
    return {
      status: 'failed',
      text: `there is no result "${ref}" in this conversation; use the ref named in the notice of a cut result`,
    };
  const text = target.text;
  const n = text.length;
  if (typeof args.query === 'string' && args.query) {
    const q = args.query.toLowerCase();
    const lower = text.toLowerCase();
    const found: string[] = [];
    let total = 0;
    let budget = pageChars(limits);
    for (let at = lower.indexOf(q); at >= 0; at = lower.indexOf(q, at + 1)) {
      total++;
      if (found.length >= MAX_MATCHES || budget <= 0) continue;
      const from = Math.max(0, at - AROUND);
      const line = `@${at}: ${text.slice(from, Math.min(n, at + q.length + AROUND))}`;
      budget -= line.length;
      if (budget >= 0) found.push(line);
    }
    const shown = found.length < total ? `, the first ${found.length} shown` : '';
    return {
      status: 'done',
      text: total
        ? `[${READ_RESULT} ${ref}: ${total} match(es) of "${args.query}" in ${chars(n)} characters${shown}; read around one with "offset"]\n${found.join('\n')}`
        : `[${READ_RESULT} ${ref}: "${args.query}" does not occur in its ${chars(n)} characters]`,
    };
  }
  const offset = Math.min(n, Math.max(0, Math.floor(Number(args.offset ?? 0)) || 0));
  const want = Math.floor(Number(args.length ?? pageChars(limits))) || pageChars(limits);
  const end = Math.min(n, offset + Math.max(1, Math.min(want, pageChars(limits))));
  const next = end < n ? `; read on with "offset":${end}` : '; this is the end';
  return {
    status: 'done',
    text: `[${READ_RESULT} ${ref}: characters ${chars(offset)}–${chars(end)} of ${chars(n)}${next}]\n${text.slice(offset, end)}`,
  };
}
