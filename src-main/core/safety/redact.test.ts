import { describe, expect, it } from 'vitest';
import { maskUrl, redactText, SecretRedactor } from './redact';

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

describe('SecretRedactor', () => {
  it('masks every value it learned, in one pass, longest first; ignores tiny values', () => {
    const r = new SecretRedactor();
    expect(r.redact('nothing known yet: abcd')).toBe('nothing known yet: abcd');
    r.add(['abcd', 'abcdef', 'ab', undefined, '']);
    expect(r.redact('key=abcd and abcdef, ab')).toBe('key=[redacted] and [redacted], ab');
    r.add(['p@ss/word+1']);
    expect(
      r.redact(`u=${encodeURIComponent('p@ss/word+1')} b=${Buffer.from('p@ss/word+1').toString('base64')}`),
    ).toBe('u=[redacted] b=[redacted]=');
    expect(r.values().sort()).toEqual(['abcd', 'abcdef', 'p@ss/word+1']);
    expect(r.redact('a (.*) regex-looking text')).toBe('a (.*) regex-looking text');
    r.add(['(.*)']);
    expect(r.redact('a (.*) regex-looking text')).toBe('a [redacted] regex-looking text');
  });
});
