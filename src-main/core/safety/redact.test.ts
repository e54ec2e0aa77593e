import { describe, expect, it } from 'vitest';
import { maskUrl, redactText } from './redact';

describe('maskUrl', () => {
  it.each([
    ['https://user:tok@api.example.com:8443/mcp?key=abc#x', 'api.example.com:8443'],
    ['http://127.0.0.1:3000/sse', '127.0.0.1:3000'],
    ['https://[::1]/mcp', '[::1]'],
    ['not a url', '[invalid url]'],
  ])('%s → %s', (url, expected) => expect(maskUrl(url)).toBe(expected));
});

describe('redactText', () => {
  it('masks plain, URL-encoded and base64 forms, longest first, and ignores tiny secrets', () => {
    const s = 'p@ss/word+1';
    const text = `a ${s} b ${encodeURIComponent(s)} c ${Buffer.from(s).toString('base64')} d`;
    const out = redactText(text, [s, 'ab', '']);
    expect(out).not.toContain(s);
    expect(out).not.toContain(encodeURIComponent(s));
    expect(out).toBe('a [redacted] b [redacted] c [redacted]= d');
    expect(redactText('key=abcd and abcdef', ['abcd', 'abcdef'])).toBe('key=[redacted] and [redacted]');
  });
});
