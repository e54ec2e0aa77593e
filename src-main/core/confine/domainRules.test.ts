import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loopbackPorts, matchDomain, parseDomainRule } from './domainRules';

const rules = ['registry.npmjs.org', '*.example.com', 'api.test:8443', 'localhost:5432', '[::1]:80'].map(
  parseDomainRule,
);

describe('allowedDomains', () => {
  it('a name matches itself; a wildcard its subdomains, not the apex', () => {
    expect(matchDomain(rules, 'registry.npmjs.org', 443)).toBeDefined();
    expect(matchDomain(rules, 'REGISTRY.npmjs.org.', 443)).toBeDefined();
    expect(matchDomain(rules, 'evil-registry.npmjs.org', 443)).toBeUndefined();
    expect(matchDomain(rules, 'a.b.example.com', 443)).toBeDefined();
    expect(matchDomain(rules, 'example.com', 443)).toBeUndefined();
  });

  it('a port in the rule is the only port', () => {
    expect(matchDomain(rules, 'api.test', 8443)).toBeDefined();
    expect(matchDomain(rules, 'api.test', 443)).toBeUndefined();
  });

  it('loopback only when named, never through a wildcard', () => {
    expect(matchDomain([parseDomainRule('*.localhost')], 'x.localhost', 80)).toBeUndefined();
    expect(matchDomain(rules, 'localhost', 5432)).toBeDefined();
    expect(matchDomain(rules, '127.0.0.1', 5432)).toBeUndefined();
    expect(matchDomain(rules, '::1', 80)).toBeDefined();
    expect(loopbackPorts(rules)).toEqual([5432, 80]);
    expect(['localhost', '127.8.0.1', '::1', '::ffff:127.0.0.1', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['10.0.0.1', 'example.com', '::2'].some(isLoopbackHost)).toBe(false);
  });
});
