// What is kept of a model's answer to a title request: the answer is untrusted text (docs/untrusted-text.md,
// "Untrusted text"), so only a short plain line is stored and shown.
import { describe, expect, it } from 'vitest';
import { MAX_MODEL_TITLE, sanitizeTitle } from './conversationTitles';

describe('sanitizeTitle', () => {
  it.each([
    ['Weather in Paris', 'Weather in Paris'],
    ['"Weather in Paris"', 'Weather in Paris'],
    ['**Weather in Paris**', 'Weather in Paris'],
    ['# Weather in _Paris_', 'Weather in Paris'],
    ['Title: “Weather in Paris”.', 'Weather in Paris'],
    ['- `Weather` in [Paris](https://example.com)', 'Weather in Paris'],
    ['\n\n  Weather   in\tParis  \nHere is why I chose it.', 'Weather in Paris'],
    ['<think>The user asks about weather.\nSo…</think>\nWeather in Paris', 'Weather in Paris'],
    ['Weather\u202e in\u200b Paris\u0007\u001b[2K', 'Weather in Paris[2K'],
    ["Mom's snake_case helper", "Mom's snake_case helper"],
    ['Why is the sky blue?', 'Why is the sky blue?'],
  ])('%j → %j', (answer, title) => {
    expect(sanitizeTitle(answer)).toBe(title);
  });

  it('leaves nothing of an answer without words, so the first words stay', () => {
    for (const empty of ['', '   ', '""', '**', '<think>only thinking', '\u202e\u200b\n\n', '.'])
      expect(sanitizeTitle(empty)).toBe('');
  });

  it('cuts a long answer at a word, within the limit', () => {
    const title = sanitizeTitle('A very long title that goes on and on about many different things at once');
    expect(Array.from(title).length).toBeLessThanOrEqual(MAX_MODEL_TITLE);
    expect(title).toBe('A very long title that goes on and on about many different…');
    const unbroken = sanitizeTitle('x'.repeat(200));
    expect(Array.from(unbroken)).toHaveLength(MAX_MODEL_TITLE);
  });
});
