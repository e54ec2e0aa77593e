// A fetch that only reaches addresses the SSRF guard checked (issue 4). DNS pinning: undici's connector hands
// our `lookup` to net/tls.connect, so the socket connects to exactly the addresses the guarded lookup
// resolved and approved — there is no second resolution an attacker's DNS could answer differently.
// Redirects are followed by hand so every hop is checked again, and the chain is bounded.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';
import { MooringError } from '../errors';
import { classifyAddress, isIpLiteral } from './ipRanges';
import {
  checkAddresses,
  checkUrl,
  isLocalhostName,
  normaliseHost,
  systemResolver,
  type SsrfPolicy,
} from './ssrfGuard';

export const DEFAULT_MAX_REDIRECTS = 5;

export interface GuardedFetchOptions extends SsrfPolicy {
  maxRedirects?: number;
}

/** The shape the MCP SDK transports accept as `fetch` (FetchLike). */
export type GuardedFetch = ((input: string | URL, init?: RequestInit) => Promise<Response>) & {
  /** Closes the pinned connection pool. */
  close(): Promise<void>;
};

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A net.connect `lookup` that resolves through the hook and refuses forbidden addresses. */
export function createGuardedLookup(policy: SsrfPolicy) {
  const resolve = policy.lookup ?? systemResolver;
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const host = normaliseHost(hostname);
    resolve(host)
      .then((answers) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = answers.filter((a) => !wanted || a.family === wanted);
        const notes = checkAddresses(
          host,
          usable.map((a) => classifyAddress(a.address)),
          policy,
        );
        notes.forEach((n) => policy.onNote?.(n));
        const first = usable[0] as LookupAddress;
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Finds our own error inside undici's `TypeError: fetch failed` wrapper. */
function unwrap(err: unknown): unknown {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof MooringError) return e;
  return err;
}

export function createGuardedFetch(opts: GuardedFetchOptions = {}): GuardedFetch {
  const dispatcher = new Agent({ connect: { lookup: createGuardedLookup(opts) } });
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  const guarded = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers = new Headers(init.headers);
    for (let hop = 0; ; hop++) {
      // Hostnames are checked by the pinned lookup at connect time. Literal IPs never reach a lookup, a
      // non-http scheme must fail before anything happens, and the typed-literal allowance depends on the
      // port, which the lookup does not see: check those here, per hop.
      const host = normaliseHost(url.hostname);
      if (
        (url.protocol !== 'http:' && url.protocol !== 'https:') ||
        isIpLiteral(host) ||
        isLocalhostName(host)
      )
        await checkUrl(url, opts);
      let res: Response;
      try {
        res = (await undiciFetch(url, {
          ...(init as object),
          method,
          headers,
          body,
          redirect: 'manual',
          dispatcher,
        } as unknown as Parameters<typeof undiciFetch>[1])) as unknown as Response;
      } catch (err) {
        throw unwrap(err);
      }
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location || init.redirect === 'manual') return res;
      if (init.redirect === 'error')
        throw new MooringError(
          'protocol_error',
          `${url.host} answered with a redirect, which this request does not follow.`,
        );
      if (hop >= maxRedirects)
        throw new MooringError(
          'protocol_error',
          `Too many redirects (more than ${maxRedirects}) starting from ${new URL(input).host}.`,
          'Use the final URL directly.',
        );
      await res.body?.cancel().catch(() => undefined);
      const next = new URL(location, url);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      } else if (body instanceof ReadableStream) {
        throw new MooringError(
          'protocol_error',
          `${url.host} redirected a streamed request body, which cannot be replayed.`,
        );
      }
      if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      url = next;
    }
  };
  return Object.assign(guarded, { close: () => dispatcher.close() });
}
