import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl } from '../core/safety/ssrfGuard';
import { isAllowedExternalLink, isTrustedSender } from './senderCheck';

describe('IPC sender check (our top frame, our origin)', () => {
  const ok = { frameUrl: 'app://mooring/index.html#/servers', isTopFrame: true, isOurWindow: true };
  it('accepts our top frame on our origin', () => expect(isTrustedSender(ok)).toBe(true));
  it.each([
    ['an iframe', { ...ok, isTopFrame: false }],
    ['another webContents', { ...ok, isOurWindow: false }],
    ['a page that navigated away', { ...ok, frameUrl: 'https://evil.example/' }],
    ['a look-alike host', { ...ok, frameUrl: 'app://mooring.evil/index.html' }],
    ['a file: page', { ...ok, frameUrl: 'file:///etc/passwd' }],
    ['a destroyed frame', { ...ok, frameUrl: null }],
    ['garbage', { ...ok, frameUrl: 'not a url' }],
  ])('refuses %s', (_label, facts) => expect(isTrustedSender(facts)).toBe(false));

  it('opens only https links externally', () => {
    expect(isAllowedExternalLink('https://modelcontextprotocol.io/', isSafeExternalUrl)).toBe(true);
    for (const u of [
      'http://example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ms-settings:',
      'app://mooring/x',
    ])
      expect(isAllowedExternalLink(u, isSafeExternalUrl)).toBe(false);
  });
});
