// Results too large for the model (docs/chat.md, "Results too large for the model"): what the model is
// sent of a result, and what read_result answers from the stored one.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolChatMessage } from '@shared/chat';
import { cutResult, needsReadResult, readResult, resultLimits } from './largeResults';
import { messagesForModel } from './messagesForModel';

const limits = { resultChars: 1_000, requestChars: 2_500 };
const tool = (id: string, text: string): ToolChatMessage => ({
  id: `m-${id}`,
  at: 0,
  role: 'tool',
  toolCallId: id,
  name: 'mcp__files__read_text_file',
  status: 'done',
  text,
});
const big = Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\n');

describe('large results', () => {
  it('sends a result within the limit whole, and a larger one as its head and how to read on', () => {
    expect(cutResult(tool('a', 'small'), limits)).toBe('small');
    const cut = cutResult(tool('a', big), limits);
    expect(cut.length).toBeLessThanOrEqual(limits.resultChars);
    expect(cut.startsWith('row 0\nrow 1\n')).toBe(true);
    expect(cut).toMatch(/this result is 3,889 characters .*read_result \{"ref":"a","offset":\d+\}/);
  });

  it('derives the limits from the context window, or a fixed size', () => {
    expect(resultLimits({ contextTokens: 100_000, share: 0.2 })).toEqual({
      resultChars: 60_000,
      requestChars: 150_000,
    });
    expect(resultLimits({ contextTokens: 100_000, share: 0.2, maxChars: 5_000 }).resultChars).toBe(5_000);
  });

  it('pages through a stored result to its end, and finds text in it', () => {
    const messages: ChatMessage[] = [tool('a', big)];
    const first = readResult(messages, { ref: 'a', offset: 0, length: 100 }, limits);
    expect(first.text).toMatch(
      /^\[read_result a: characters 0–100 of 3,889; read on with "offset":100\]\nrow 0/,
    );
    const last = readResult(messages, { ref: 'a', offset: 3_800 }, limits);
    expect(last.text).toContain('this is the end');
    expect(last.text.endsWith('row 499')).toBe(true);
    expect(readResult(messages, { ref: 'a', query: 'ROW 49' }, limits).text).toMatch(
      /11 match\(es\) of "ROW 49" in 3,889 characters, the first 2 shown/,
    );
    expect(readResult(messages, { ref: 'a', query: 'absent' }, limits).text).toMatch(/does not occur/);
    expect(readResult(messages, { ref: 'nope' }, limits)).toMatchObject({ status: 'failed' });
  });

  it('keeps all results of one request under its limit, leaving the oldest out first', () => {
    const messages: ChatMessage[] = [
      tool('a', 'A'.repeat(900)),
      tool('b', 'B'.repeat(900)),
      tool('c', 'C'.repeat(900)),
    ];
    expect(needsReadResult(messages, limits)).toBe(true);
    const sent = JSON.stringify(
      messagesForModel(messages, { tools: true, vision: false }, { results: limits }),
    );
    expect(sent).toContain('C'.repeat(900));
    expect(sent).toContain('B'.repeat(900));
    expect(sent).not.toContain('A'.repeat(900));
    expect(sent).toContain('read it with read_result {\\"ref\\":\\"a\\"}');
  });
});
