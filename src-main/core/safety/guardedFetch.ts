// A fetch that only reaches addresses the SSRF guard checked (ssrfGuard.ts). DNS pinning: undici's connector hands
// our `lookup` to net/tls.connect, so the socket connects to exactly the addresses the guarded lookup
// resolved and approved — there is no second resolution an attacker's DNS could answer differently.
// Redirects are followed by hand (redirects.ts) so every hop is checked again, and the chain is bounded.
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Agent, fetch as undiciFetch } from 'undici';
import { MooringError } from '../errors';
import { loadUndici } from './lazy';
import { classifyAddress, isIpLiteral } from './ipRanges';
import { DEFAULT_MAX_REDIRECTS, fetchFollowingRedirects } from './redirects';
import {
  checkAddresses,
  checkUrl,
  isLocalhostName,
  normaliseHost,
  systemResolver,
  type SsrfPolicy,
} from './ssrfGuard';

export { DEFAULT_MAX_REDIRECTS };

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

/** Finds our own error inside undici's `TypeError: fetch failed` wrapper. */
function unwrap(err: unknown): unknown {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof MooringError) return e;
  return err;
}

export function createGuardedFetch(opts: GuardedFetchOptions = {}): GuardedFetch {
  // undici and its connection pool, on the first request (safety/lazy.ts).
  let client: Promise<{ fetch: typeof undiciFetch; dispatcher: Agent }> | undefined;
  const undici = () =>
    (client ??= loadUndici().then((u) => ({
      fetch: u.fetch,
      dispatcher: new u.Agent({ connect: { lookup: createGuardedLookup(opts) } }),
    })));
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;

  const guarded = (input: string | URL, init: RequestInit = {}): Promise<Response> =>
    fetchFollowingRedirects(
      async ({ url, method, body, headers }) => {
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
        const { fetch: undiciFetch, dispatcher } = await undici();
        try {
          return (await undiciFetch(url, {
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
      },
      input,
      init,
      maxRedirects,
    );
  return Object.assign(guarded, {
    close: async () => {
      if (client) await (await client).dispatcher.close();
    },
  });
}
