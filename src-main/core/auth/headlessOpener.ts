// An opener without a browser, for automation: the conformance suite's authorization servers (and the
// test fixture's) approve at once and answer the authorization URL with a redirect to the callback. This
// plays the browser: it follows those redirects by hand, a bounded number of hops, and delivers the final
// one to Mooring's own loopback listener, so state checks and the code exchange run exactly as for a user.
import { MooringError } from '../errors';
import type { AuthorizationOpener } from './oauthProvider';

export const MAX_REDIRECT_HOPS = 5;

export function followAuthorizationRedirects(
  opts: { fetch?: typeof fetch; onPrompt?: (text: string) => void } = {},
): AuthorizationOpener {
  const f = opts.fetch ?? fetch;
  return async ({ server, host, url }) => {
    opts.onPrompt?.(`Signing in to ${server} at ${host}`);
    let next = url.toString();
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      const res = await f(next, { redirect: 'manual' });
      await res.arrayBuffer().catch(() => undefined);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) next = new URL(location, next).toString();
      else if (hop > 0)
        return; // the last hop reached the callback listener (or an error page)
      else
        throw new MooringError(
          'auth_required',
          `The authorization server of "${server}" did not redirect back (HTTP ${res.status}); it needs a person at a browser`,
          `Sign in interactively: mooring mcp login ${server}`,
        );
    }
    throw new MooringError('auth_required', `Too many redirects while signing in to "${server}"`);
  };
}
