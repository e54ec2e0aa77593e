// Redirects followed by hand, one hop at a time, so whoever sends a request can decide again at every hop
// what it may reach (the SSRF guard) and what it may carry (a server's headers go to its own origin only).
// Rules: RFC 9110 §15.4 (303, and 301/302 after a POST, become a GET without a body; 307/308 keep both);
// credentials never follow a request to another origin (the Fetch standard's cross-origin redirect rule).
import { MooringError } from '../errors';

export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** One request of a redirect chain: what the next hop sends. */
export interface Hop {
  url: URL;
  method: string;
  body: RequestInit['body'];
  headers: Headers;
}

/** Sends one hop without following its redirect (`redirect: 'manual'`). */
export type SendHop = (hop: Hop) => Promise<Response>;

/**
 * Sends `input`, following redirects through `send` unless `init.redirect` says otherwise ('manual' returns
 * the 3xx, 'error' throws), at most `maxRedirects` times.
 */
export async function fetchFollowingRedirects(
  send: SendHop,
  input: string | URL,
  init: RequestInit = {},
  maxRedirects = DEFAULT_MAX_REDIRECTS,
): Promise<Response> {
  let hop: Hop = {
    url: new URL(input),
    method: (init.method ?? 'GET').toUpperCase(),
    body: init.body,
    headers: new Headers(init.headers),
  };
  for (let n = 0; ; n++) {
    const res = await send(hop);
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location || init.redirect === 'manual') return res;
    if (init.redirect === 'error')
      throw new MooringError(
        'protocol_error',
        `${hop.url.host} answered with a redirect, which this request does not follow.`,
      );
    if (n >= maxRedirects)
      throw new MooringError(
        'protocol_error',
        `Too many redirects (more than ${maxRedirects}) starting from ${new URL(input).host}.`,
        'Use the final URL directly.',
      );
    await res.body?.cancel().catch(() => undefined);
    hop = nextHop(hop, res.status, new URL(location, hop.url));
  }
}

function nextHop(hop: Hop, status: number, url: URL): Hop {
  const headers = new Headers(hop.headers);
  let { method, body } = hop;
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    method = method === 'HEAD' ? 'HEAD' : 'GET';
    body = undefined;
    headers.delete('content-type');
    headers.delete('content-length');
  } else if (body instanceof ReadableStream) {
    throw new MooringError(
      'protocol_error',
      `${hop.url.host} redirected a streamed request body, which cannot be replayed.`,
    );
  }
  if (url.origin !== hop.url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
  return { url, method, body, headers };
}
