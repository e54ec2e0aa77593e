// The SSRF guard's rules (ssrfGuard.ts) for origins a server declares rather than fetches: an MCP App view's
// CSP domains (extension io.modelcontextprotocol/ui, "UI Resource Format": connectDomains, resourceDomains,
// frameDomains, baseUriDomains). The browser, not Mooring, connects to them, so nothing can be resolved
// and pinned here: a name is judged as written. Private and loopback hosts only for a local server the user
// added (stdio, or `allowPrivateNetwork`); link-local and metadata hosts only when `allowLinkLocalHosts`
// names them; and anything that is not a bare origin (a path, a quote, a `;` that would start another CSP
// directive) is dropped, never passed on.
import { classifyAddress, isIpLiteral } from './ipRanges';
import { isLocalhostName, METADATA_HOSTNAMES, normaliseHost } from './ssrfGuard';

export interface DeclaredOriginPolicy {
  /** A local server the user added (stdio, or allowPrivateNetwork): loopback and private hosts pass. */
  allowPrivateNetwork: boolean;
  /** The server's allowLinkLocalHosts: these link-local or metadata hosts pass, exactly as named. */
  allowLinkLocalHosts?: readonly string[];
}

export type OriginVerdict = { ok: true; origin: string } | { ok: false; origin: string; why: string };

const SCHEMES = new Set(['https:', 'wss:', 'http:', 'ws:']);
/** Scheme, an optional `*.` label, a host of DNS characters or a bracketed IPv6, an optional port, an optional `/`. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i;

/** One declared origin, judged: kept in its canonical form (`https://*.example.com:8443`), or dropped with why. */
export function checkDeclaredOrigin(raw: string, policy: DeclaredOriginPolicy): OriginVerdict {
  const origin = String(raw).trim();
  const m = ORIGIN.exec(origin);
  if (!m) return { ok: false, origin, why: 'not a bare origin such as https://api.example.com' };
  const url = new URL(origin.replace('*.', 'wildcard.'));
  if (!SCHEMES.has(url.protocol))
    return { ok: false, origin, why: `the scheme ${url.protocol} is not allowed` };
  const wildcard = m[2] !== undefined;
  const host = normaliseHost(m[3]!.replace(/^\[|\]$/g, ''));
  const named = (policy.allowLinkLocalHosts ?? []).some((h) => normaliseHost(h) === host);
  const canonical = `${m[1]!.toLowerCase()}://${wildcard ? '*.' : ''}${url.host.replace(/^wildcard\./, '')}`;
  const plain = url.protocol === 'http:' || url.protocol === 'ws:';
  let local = false;
  if (isIpLiteral(host)) {
    if (wildcard) return { ok: false, origin, why: 'a wildcard cannot apply to an address' };
    const cls = classifyAddress(host).class;
    if (cls === 'link-local' && !named)
      return { ok: false, origin, why: 'a link-local or metadata address (allowLinkLocalHosts may name it)' };
    if (cls === 'never' || cls === 'special')
      return { ok: false, origin, why: 'a special-purpose address is never a target' };
    local = cls === 'local';
  } else if (METADATA_HOSTNAMES.has(host) && !named) {
    return { ok: false, origin, why: 'an instance-metadata host name' };
  } else if (isLocalhostName(host)) {
    local = true;
  } else if (!host.includes('.')) {
    return { ok: false, origin, why: 'a single-label name resolves on the local network' };
  }
  if (local && !policy.allowPrivateNetwork && !named)
    return { ok: false, origin, why: 'a local address, allowed only for a local server the user added' };
  if (plain && !local && !named)
    return { ok: false, origin, why: 'plain http or ws only to a local address' };
  return { ok: true, origin: canonical };
}
