// The hosts a confined server may reach (docs/confinement.md, "Network"): its `allowedDomains` as rules the
// egress proxy asks per request. A rule names a host (`example.com`), every subdomain of one
// (`*.example.com`, not the apex), `localhost` or an address, optionally with a port. Loopback is reached
// only through a rule that names it: a wildcard never covers it.
import { isIP } from 'node:net';

export interface DomainRule {
  /** Lower-case host, without the `*.` of a wildcard and without brackets. */
  host: string;
  wildcard: boolean;
  /** The one port it allows; undefined: any. */
  port?: number;
}

export function parseDomainRule(entry: string): DomainRule {
  let rest = entry.trim().toLowerCase();
  let port: number | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracketed) return { host: bracketed[1]!, wildcard: false, ...portOf(bracketed[2]) };
  const m = /^(.*):(\d+)$/.exec(rest);
  if (m) {
    rest = m[1]!;
    port = Number(m[2]);
  }
  const wildcard = rest.startsWith('*.');
  return { host: wildcard ? rest.slice(2) : rest, wildcard, ...(port !== undefined ? { port } : {}) };
}

const portOf = (p: string | undefined) => (p === undefined ? {} : { port: Number(p) });

/** localhost, 127.0.0.0/8, ::1 (and the IPv4-mapped form): the machine itself. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h);
  return false;
}

/** The rule that lets `host:port` through, if any. */
export function matchDomain(
  rules: readonly DomainRule[],
  host: string,
  port: number,
): DomainRule | undefined {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return rules.find((r) => {
    if (r.port !== undefined && r.port !== port) return false;
    if (r.wildcard) return !isLoopbackHost(h) && h.endsWith(`.${r.host}`);
    return h === r.host;
  });
}

/** The loopback ports a server may connect to directly (`localhost:5432`): each gets a forwarder. */
export function loopbackPorts(rules: readonly DomainRule[]): number[] {
  return [
    ...new Set(
      rules.filter((r) => !r.wildcard && r.port !== undefined && isLoopbackHost(r.host)).map((r) => r.port!),
    ),
  ];
}
