// How a remote transport reaches its server (ARCHITECTURE.md, "The core, by room": mcp). Every remote
// transport is built with a ServerDial (transportFactory.ts: the compiler asks for it), and the dial is the
// only way to the server's configured headers and past the SSRF guard. So a transport that speaks through
// `fetch` uses `dial.fetch`, and one that opens its connection another way (a socket, a WebSocket) asks
// `dial.admit(url)` first: neither can reach the network without the guard, nor get the headers for
// another origin (serverHeaders.ts).
//
// The guard itself is safety's (the SSRF rules, DNS pinning); this room cannot import it, so it declares
// what it needs (`DialGuard`) and the root hands one in per server (SessionActorOptions.guardFor).
import type { FetchLike } from '@modelcontextprotocol/client';
import type { RemoteServerConfig } from '@shared/config';
import { headersForOrigin, withServerHeaders } from './serverHeaders';

/** What the SSRF guard offers one server (safety/guardedFetch.ts and ssrfGuard.ts, under its policy). */
export interface DialGuard {
  /** A fetch that reaches only the addresses the guard checked, re-checking every redirect hop. */
  readonly fetch: FetchLike;
  /** Throws `ssrf_blocked` when `url` is somewhere this server may not make Mooring connect. */
  check(url: URL): Promise<void>;
}

/** The way to one remote server, for its transport. */
export interface ServerDial {
  /** The server's own requests: through the guard, with its headers on requests to its own origin only. */
  readonly fetch: FetchLike;
  /** Requests that are not the server's (OAuth discovery, registration, tokens): the guard, no headers. */
  readonly guardedFetch: FetchLike;
  /**
   * For a connection opened without `fetch`: the guard's check of `url` (throws `ssrf_blocked`), then the
   * headers that connection may carry (the server's, when `url` is on its origin; otherwise none).
   */
  admit(url: URL): Promise<{ headers: Record<string, string> }>;
}

/**
 * No guard: a remote server reached as its URL says. For the hosts that wire none (tests on 127.0.0.1, the
 * conformance client); the core always hands in safety's guard.
 */
export const DIRECT_GUARD: DialGuard = {
  fetch: (url, init) => fetch(url, init),
  check: async () => undefined,
};

export function serverDial(
  config: Pick<RemoteServerConfig, 'url' | 'headers'>,
  guard: DialGuard,
): ServerDial {
  const own = { serverUrl: config.url, headers: config.headers };
  return {
    fetch: withServerHeaders(guard.fetch, own),
    guardedFetch: guard.fetch,
    admit: async (url) => {
      await guard.check(url);
      return { headers: headersForOrigin(url, own) };
    },
  };
}
