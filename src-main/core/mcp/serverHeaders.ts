// A remote server's configured headers (an API key, a static Authorization) are for that server only
// (README, "Safety"). The SDK would send them with every request its transport makes — OAuth discovery,
// client registration and token requests to an authorization server on another origin included — if they
// were passed as `requestInit.headers`. So they are added here instead: only a request to the server URL's
// own origin gets them, and such a request is never followed to another origin with them. The SDK asks
// for `redirect: 'manual'` on every request and follows same-origin redirects itself, one request at a
// time (each comes back through here), so nothing it needs is lost.
import type { FetchLike } from '@modelcontextprotocol/client';

export interface ServerHeadersOptions {
  /** The MCP server's URL: its origin (scheme, host, port) is the only one the headers go to. */
  serverUrl: string;
  headers: Record<string, string>;
}

/** The headers a connection to `url` may carry: the server's, when `url` is on its origin; else none. */
export function headersForOrigin(url: URL, opts: ServerHeadersOptions): Record<string, string> {
  return url.origin === new URL(opts.serverUrl).origin ? { ...opts.headers } : {};
}

/** `base`, adding the server's headers to requests for its origin; a header the caller set wins. */
export function withServerHeaders(base: FetchLike, opts: ServerHeadersOptions): FetchLike {
  const entries = Object.entries(opts.headers);
  if (!entries.length) return base;
  const origin = new URL(opts.serverUrl).origin;
  return (input, init = {}) => {
    if (new URL(input).origin !== origin) return base(input, init);
    const headers = new Headers(init.headers);
    for (const [k, v] of entries) if (!headers.has(k)) headers.set(k, v);
    return base(input, { ...init, headers, redirect: init.redirect === 'error' ? 'error' : 'manual' });
  };
}
