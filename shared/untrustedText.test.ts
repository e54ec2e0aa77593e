import { describe, expect, it } from 'vitest';
import { escapeUntrusted, jsonForTerminal } from './untrustedText';

describe('escapeUntrusted', () => {
  it('shows every control, bidi and invisible format character as a visible escape', () => {
    const text = 'a\x1b[2Kb\x1b]0;title\x07c\u202ed\u2067e\rf\u009bg\u200bh\u2028i\x7fj\u{e0041}k';
    expect(escapeUntrusted(text)).toBe(
      'a\\x1b[2Kb\\x1b]0;title\\x07c\\u202ed\\u2067e\\rf\\x9bg\\u200bh\\u2028i\\x7fj\\u{e0041}k',
    );
  });

  it('keeps one line unless multiline, where newlines and tabs stay and carriage returns do not', () => {
    expect(escapeUntrusted('one\ntwo\tthree')).toBe('one\\ntwo\\tthree');
    expect(escapeUntrusted('one\ntwo\tthree\r', { multiline: true })).toBe('one\ntwo\tthree\\r');
  });

  it('leaves ordinary text alone, emoji and other scripts included, and is idempotent', () => {
    const plain = 'Grüße, 世界 🚢 — "quoted" \\x1b is just text';
    expect(escapeUntrusted(plain)).toBe(plain);
    const once = escapeUntrusted('x\x1b[31my');
    expect(escapeUntrusted(once)).toBe(once);
  });
});

describe('jsonForTerminal', () => {
  it('parses back to the same value with no raw unsafe character left', () => {
    const value = { name: 'evil\u202e\u009b\x1b[2K\u2028', list: ['\x7f', 'ok'], n: 1 };
    for (const indent of [undefined, 2]) {
      const text = jsonForTerminal(value, indent);
      expect(JSON.parse(text)).toEqual(value);
      for (const ch of ['\u202e', '\u009b', '\x1b', '\u2028', '\x7f']) expect(text).not.toContain(ch);
    }
    expect(jsonForTerminal(undefined)).toBe('null');
  });
});
