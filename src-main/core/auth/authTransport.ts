// Completes a browser sign-in inside the session (MCP 2025-11-25, "Authorization"). The SDK transports run
// `auth()` on a 401 and on a 403 `insufficient_scope` (step-up), but when that needs the user they send the
// browser off and throw UnauthorizedError; the host is to call `finishAuth` with the callback and try again.
// This wraps one transport's `send` to do exactly that: wait for the loopback callback, `finishAuth` (which
// checks `iss` and redeems the code with the PKCE verifier and `resource`), and re-send the same message, at
// most MAX_AUTHORIZATIONS_PER_SEND times, so a server that never accepts the new token cannot loop us. It
// also refreshes an access token about to expire before sending (the SDK refreshes only after a 401).
import {
  auth,
  UnauthorizedError,
  type FetchLike,
  type JSONRPCMessage,
  type OAuthClientProvider,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { AuthCapableTransport, TransportAuth } from '../mcp/transportFactory';
import { toAuthError } from './authErrors';
import type { MooringOAuthProvider } from './oauthProvider';
import { refreshOnce } from './refreshOnce';

/** Browser round trips one message may take (the first sign-in, then one scope step-up). */
export const MAX_AUTHORIZATIONS_PER_SEND = 2;

export type { AuthCapableTransport, TransportAuth };

type Interactive = Pick<
  MooringOAuthProvider,
  | 'server'
  | 'takeAuthorizationResponse'
  | 'expiresSoon'
  | 'hasDiscovery'
  | 'cancelPending'
  | 'checksIssuer'
  | 'offersOAuth'
> &
  OAuthClientProvider;

/** The TransportAuth of Mooring's own provider. */
export function transportAuth(provider: Interactive): TransportAuth {
  return {
    provider,
    ...(provider.checksIssuer ? { skipIssuerMetadataValidation: true } : {}),
    fetch: refreshOnce,
    wrap: (t, opts) =>
      withSignIn(t, provider, {
        ...opts,
        fetch: refreshOnce(opts.fetch ?? ((url, init) => fetch(url, init))),
      }),
  };
}

/** A TransportAuth for a provider that never needs a browser (client credentials, SEP-1046). */
export function plainTransportAuth(provider: OAuthClientProvider, server: string): TransportAuth {
  return {
    provider,
    wrap: (t) => {
      const send = t.send.bind(t);
      t.send = (m, o) => send(m, o).catch((e: unknown) => Promise.reject(toAuthError(e, server)));
      return t;
    },
  };
}

export function withSignIn<T extends AuthCapableTransport>(
  transport: T,
  provider: Interactive,
  opts: { serverUrl: string; fetch?: FetchLike },
): T {
  const server = provider.server;
  let refreshing: Promise<void> | undefined;

  /** Waits for the callback of the sign-in the SDK just started, and redeems it. */
  const finish = async (): Promise<boolean> => {
    const params = await provider.takeAuthorizationResponse();
    if (!params) return false;
    await transport.finishAuth(params);
    return true;
  };

  const refreshEarly = async () => {
    // Without discovery state (a new process) the 401 path refreshes instead: it knows the metadata URL.
    if (!(await provider.hasDiscovery()) || !(await provider.expiresSoon())) return;
    refreshing ??= (async () => {
      const fetchFn = opts.fetch;
      const r = await auth(provider, {
        serverUrl: opts.serverUrl,
        skipIssuerMetadataValidation: provider.checksIssuer,
        ...(fetchFn ? { fetchFn } : {}),
      });
      if (r === 'REDIRECT') await finish();
    })().finally(() => (refreshing = undefined));
    await refreshing;
  };

  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
    try {
      await refreshEarly();
      for (let authorizations = 0; ; authorizations++) {
        try {
          return await send(message, options);
        } catch (err) {
          if (!(err instanceof UnauthorizedError)) throw err;
          if (authorizations >= MAX_AUTHORIZATIONS_PER_SEND) {
            provider.cancelPending();
            throw err;
          }
          if (!(await finish())) throw err;
        }
      }
    } catch (err) {
      throw toAuthError(err, server, { url: opts.serverUrl, offersOAuth: provider.offersOAuth() });
    }
  };

  // SSE opens its stream in start(), which meets the 401 first; retry it once after the sign-in.
  const sse = transport as T & { _startOrAuth?: () => Promise<void> };
  if (typeof sse._startOrAuth === 'function') {
    const start = transport.start.bind(transport);
    const reopen = sse._startOrAuth.bind(transport);
    transport.start = async () => {
      try {
        await start();
      } catch (err) {
        try {
          if (!(err instanceof UnauthorizedError) || !(await finish())) throw err;
          await reopen();
        } catch (e) {
          throw toAuthError(e, server, { url: opts.serverUrl, offersOAuth: provider.offersOAuth() });
        }
      }
    };
  }
  return transport;
}
