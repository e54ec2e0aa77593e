// The token estimate stays bounded and linear (core/tokenCount.ts): one word of 3 MB (a hostile tool
// description) is counted, and ordinary text counts as the tokenizer counts it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COUNTED_CHARS, countTokens } from './tokenCount';

const exact = (createRequire(import.meta.url)('gpt-tokenizer') as typeof import('gpt-tokenizer')).countTokens;

describe('countTokens', () => {
  it('counts ordinary text exactly', () => {
    const text = 'Reads a file from the allowed folders and returns its text. '.repeat(40);
    expect(countTokens(text)).toBe(exact(text));
  });

  it('counts a single 3 MB word (estimated past the counted part)', () => {
    const word = 'a'.repeat(3_000_000);
    const n = countTokens(word);
    // The counted head, in slices, scaled to the whole length: a positive count below one per character.
    expect(n).toBeGreaterThan(3_000_000 / 200);
    expect(n).toBeLessThan(3_000_000);
  });

  it('a long word in ordinary text is counted in slices, close to the exact count', () => {
    const text = `see ${'xq7'.repeat(2_000)} end`;
    expect(text.length).toBeLessThan(COUNTED_CHARS);
    const n = countTokens(text);
    expect(Math.abs(n - exact(text))).toBeLessThanOrEqual(text.length / 200 + 2);
  });
});
