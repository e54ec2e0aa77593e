// A remote server's configured headers (an API key, a static Authorization) are for that server only
// (README, "Safety"). The SDK would send them with every request its transport makes — OAuth discovery,
// client registration and token requests to an authorization server on another origin included — if they
// were passed as `requestInit.headers`. So they are added here instead, per hop: only a request (or a
// redirect hop) to the server URL's own origin gets them; any other host never sees them.
import type { FetchLike } from '@modelcontextprotocol/client';
import { fetchFollowingRedirects } from './redirects';

export interface ServerHeadersOptions {
  /** The MCP server's URL: its origin (scheme, host, port) is the only one the headers go to. */
  serverUrl: string;
  headers: Record<string, string>;
}

/** `base`, adding the server's headers to requests for its origin; a header the caller set wins. */
export function withServerHeaders(base: FetchLike, opts: ServerHeadersOptions): FetchLike {
  const entries = Object.entries(opts.headers);
  if (!entries.length) return base;
  const origin = new URL(opts.serverUrl).origin;
  return (input, init = {}) =>
    // Redirects are followed here, hop by hop, so a same-origin request redirected elsewhere loses them.
    fetchFollowingRedirects(
      (hop) => {
        const headers = new Headers(hop.headers);
        if (hop.url.origin === origin) for (const [k, v] of entries) if (!headers.has(k)) headers.set(k, v);
        return base(hop.url, { ...init, method: hop.method, body: hop.body, headers, redirect: 'manual' });
      },
      input,
      init,
    );
}
