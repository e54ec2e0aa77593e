// The CSP of an MCP App view built from its declared domains (viewCsp.ts), each through the SSRF guard's
// rules for declared origins (safety/declaredOrigins.ts).
import { describe, expect, it } from 'vitest';
import { checkDeclaredOrigin } from '../safety/declaredOrigins';
import { buildViewCsp, injectCsp, MAX_DOMAINS_PER_FIELD } from './viewCsp';

const remote = { allowPrivateNetwork: false };
const local = { allowPrivateNetwork: true };
const directive = (policy: string, name: string) =>
  policy
    .split('; ')
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe('buildViewCsp', () => {
  it('with nothing declared, gives the restrictive default: no network, no frames, no plugins, no forms', () => {
    const { policy, dropped } = buildViewCsp(undefined, remote);
    expect(dropped).toEqual([]);
    expect(directive(policy, 'default-src')).toBe("'none'");
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(directive(policy, 'frame-src')).toBe("'none'");
    expect(directive(policy, 'base-uri')).toBe("'none'");
    expect(directive(policy, 'object-src')).toBe("'none'");
    expect(directive(policy, 'form-action')).toBe("'none'");
    // As the extension's reference host: scripts and workers the view made itself (blob:, data:), no more.
    expect(directive(policy, 'worker-src')).toBe('blob:');
    expect(directive(policy, 'script-src')).toBe("'unsafe-inline' blob: data:");
    expect(directive(policy, 'img-src')).toBe('data: blob:');
    expect(policy).not.toContain("'self'");
    expect(policy).not.toContain("'unsafe-eval'");
  });

  it('maps each declared field to its directives', () => {
    const { policy, kept } = buildViewCsp(
      {
        connectDomains: ['https://api.example.com', 'wss://live.example.com'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://www.youtube.com'],
        baseUriDomains: ['https://example.com'],
      },
      remote,
    );
    expect(directive(policy, 'connect-src')).toBe('https://api.example.com wss://live.example.com');
    for (const d of ['script-src', 'style-src', 'img-src', 'font-src', 'media-src'])
      expect(directive(policy, d)).toContain('https://*.cdn.example.com');
    expect(directive(policy, 'frame-src')).toBe('https://www.youtube.com');
    expect(directive(policy, 'base-uri')).toBe('https://example.com');
    expect(kept.resourceDomains).toEqual(['https://*.cdn.example.com']);
    // Workers only from what the view made itself: a declared domain does not widen worker-src.
    expect(directive(policy, 'worker-src')).toBe('blob:');
  });

  it('drops what would inject another directive or a keyword, and says why', () => {
    const { policy, dropped } = buildViewCsp(
      {
        connectDomains: [
          'https://ok.example; script-src *',
          "'unsafe-eval'",
          '*',
          'https:',
          'data:',
          'https://a.example/path',
          'https://user@a.example',
          'javascript:alert(1)',
          'https://a.example, https://b.example',
        ],
      },
      remote,
    );
    expect(directive(policy, 'connect-src')).toBe("'none'");
    expect(dropped).toHaveLength(9);
    expect(policy.split('; ').filter((d) => d.startsWith('script-src'))).toHaveLength(1);
    expect(policy).not.toContain('*');
  });

  it('drops private, loopback, link-local and metadata hosts from a remote server', () => {
    const { dropped, kept } = buildViewCsp(
      {
        connectDomains: [
          'http://169.254.169.254',
          'https://metadata.google.internal',
          'http://localhost:3000',
          'https://10.0.0.1',
          'https://[::1]',
          'https://192.168.1.1:8443',
          'https://intranet',
          'https://api.example.com',
        ],
      },
      remote,
    );
    expect(kept.connectDomains).toEqual(['https://api.example.com']);
    expect(dropped.map((d) => d.origin)).toEqual([
      'http://169.254.169.254',
      'https://metadata.google.internal',
      'http://localhost:3000',
      'https://10.0.0.1',
      'https://[::1]',
      'https://192.168.1.1:8443',
      'https://intranet',
    ]);
  });

  it('lets a local server the user added reach loopback and private hosts, never link-local ones', () => {
    const { kept, dropped } = buildViewCsp(
      { connectDomains: ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://169.254.169.254'] },
      local,
    );
    expect(kept.connectDomains).toEqual(['http://localhost:3000', 'http://127.0.0.1:8080']);
    expect(dropped.map((d) => d.origin)).toEqual(['http://169.254.169.254']);
  });

  it('plain http only to a local address', () => {
    expect(checkDeclaredOrigin('http://api.example.com', local)).toMatchObject({ ok: false });
    expect(checkDeclaredOrigin('ws://api.example.com', remote)).toMatchObject({ ok: false });
  });

  it('a link-local host passes only when allowLinkLocalHosts names it', () => {
    expect(
      checkDeclaredOrigin('http://169.254.169.254', {
        allowPrivateNetwork: false,
        allowLinkLocalHosts: ['169.254.169.254'],
      }),
    ).toEqual({ ok: true, origin: 'http://169.254.169.254' });
  });

  it('caps each list', () => {
    const many = Array.from({ length: MAX_DOMAINS_PER_FIELD + 3 }, (_, i) => `https://h${i}.example.com`);
    const { kept, dropped } = buildViewCsp({ resourceDomains: many }, remote);
    expect(kept.resourceDomains).toHaveLength(MAX_DOMAINS_PER_FIELD);
    expect(dropped).toHaveLength(3);
  });

  it('ignores fields that are not lists', () => {
    const { policy } = buildViewCsp({ connectDomains: 'https://a.example' as unknown as string[] }, remote);
    expect(directive(policy, 'connect-src')).toBe("'none'");
  });
});

describe('injectCsp', () => {
  const policy = buildViewCsp(undefined, remote).policy;
  it('puts the policy first, after the doctype', () => {
    const out = injectCsp('<!doctype html><script>1</script>', policy);
    expect(out.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(out.indexOf('<meta')).toBeLessThan(out.indexOf('<script'));
  });
  it('puts it first in a document without a doctype', () => {
    expect(injectCsp('<script>1</script>', policy).startsWith('<meta http-equiv')).toBe(true);
  });
});
