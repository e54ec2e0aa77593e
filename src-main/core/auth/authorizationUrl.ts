// Which authorization URLs Mooring will hand to a browser. A server controls this URL, so it
// must never reach the OS opener with a scheme that runs code (mcp-remote, CVE-2025-6514): https only,
// or plain http on a loopback address (a local development authorization server, RFC 8252 §8.3).
import { MooringError } from '../errors';
import { isSafeExternalUrl, normaliseHost } from '../safety/ssrfGuard';

export function isLoopbackHost(hostname: string): boolean {
  const h = normaliseHost(hostname);
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Whether a browser may be sent to `url`: https, or http to a loopback host. */
export function isSafeAuthorizationUrl(url: string | URL): boolean {
  const s = String(url);
  if (!isSafeExternalUrl(s)) return false;
  const u = new URL(s);
  return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname));
}

/** Throws `refused` for a URL the browser must not open. */
export function assertSafeAuthorizationUrl(url: string | URL, server: string): URL {
  if (!isSafeAuthorizationUrl(url)) {
    let shown: string;
    try {
      const u = new URL(String(url));
      shown = `${u.protocol}//${u.host}`;
    } catch {
      shown = 'an invalid URL';
    }
    throw new MooringError(
      'refused',
      `"${server}" asked Mooring to open ${shown} to sign in; Mooring opens only https addresses (or http on this computer)`,
      "The server's authorization server is misconfigured or unsafe; contact its operator.",
    );
  }
  return new URL(String(url));
}
