// What the SDK's auth code throws, as MooringErrors a user can act on (local and wire errors
// are different types; every error says what to do). Errors that did not come out of the auth seam
// (a broken connection, a JSON-RPC error) pass through untouched for the session's own mapping.
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  OAuthError,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import { signInHint } from './oauthProvider';

// The SDK stamps every error that escapes a transport's auth seam with this registered symbol.
const AUTH_SEAM = Symbol.for('mcp.authSeamEscape');

const isAuthSeamEscape = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[AUTH_SEAM] === true;

export interface AuthErrorContext {
  /** The server's URL, for a hint that re-adds it. */
  url?: string;
  /** False when discovery found no OAuth metadata at all (oauthProvider.ts `offersOAuth`). */
  offersOAuth?: boolean | undefined;
}

export function toAuthError(err: unknown, server: string, ctx: AuthErrorContext = {}): unknown {
  if (err instanceof MooringError) return err;
  const known =
    err instanceof OAuthError ||
    err instanceof UnauthorizedError ||
    err instanceof IssuerMismatchError ||
    err instanceof AuthorizationServerMismatchError ||
    err instanceof InsecureTokenEndpointError;
  if (!known && !isAuthSeamEscape(err)) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const opts = { cause: err };
  if (err instanceof IssuerMismatchError || err instanceof AuthorizationServerMismatchError)
    return new MooringError(
      'refused',
      `The sign-in to "${server}" was stopped: the authorization server's identity did not match (${msg})`,
      'Someone may be impersonating the authorization server. Sign in again; if it keeps happening, contact the server operator.',
      opts,
    );
  if (err instanceof InsecureTokenEndpointError)
    return new MooringError(
      'refused',
      `"${server}" wants Mooring to send credentials to a token endpoint without TLS: ${msg}`,
      'Ask the server operator to serve its authorization server over https.',
      opts,
    );
  if (/does not support code challenge method/i.test(msg))
    return new MooringError(
      'refused',
      `The authorization server of "${server}" does not support PKCE S256, so Mooring will not sign in there`,
      'Ask the server operator to enable PKCE with S256; it protects your sign-in from interception.',
      opts,
    );
  if (/Protected resource .* does not match/i.test(msg))
    return new MooringError(
      'refused',
      `"${server}" names a different resource in its OAuth metadata than its own URL, so Mooring will not sign in: ${msg}`,
      'Check the server URL; if it is right, the server is misconfigured: contact its operator.',
      opts,
    );
  // A 401 from a server that publishes no OAuth metadata: it wants credentials Mooring cannot sign in for
  // (an API key in a header); the sign-in that the SDK attempts against guessed endpoints only fails again.
  if (ctx.offersOAuth === false)
    return new MooringError(
      'auth_required',
      `"${server}" wants credentials (HTTP 401) and offers no OAuth sign-in (no OAuth metadata), so signing in cannot help`,
      `Add the credentials as a header with --secret-header (its value asked hidden): mooring mcp add ${server} --replace --url ${ctx.url ?? 'URL'} --secret-header Authorization`,
      opts,
    );
  if (/does not support dynamic client registration/i.test(msg))
    return new MooringError(
      'auth_required',
      `The authorization server of "${server}" does not let Mooring register itself`,
      `Register an app with the provider (redirect URI: the one shown by "mooring mcp login ${server}") and sign in with: mooring mcp login ${server} --client-id ID`,
      opts,
    );
  return new MooringError(
    'auth_required',
    `Signing in to "${server}" failed: ${msg}`,
    signInHint(server),
    opts,
  );
}
