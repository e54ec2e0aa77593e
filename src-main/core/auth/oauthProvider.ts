// Mooring's OAuthClientProvider: the MCP SDK runs the flows (`auth()`: protected resource
// metadata, authorization server metadata with OAuth + OIDC discovery, Client ID Metadata Document or
// dynamic registration, PKCE S256, the `resource` indicator, `iss` validation, refresh); this class
// keeps what they need in the keychain and owns what the SDK leaves to the host:
// - the redirect URI on a fixed loopback port, a fresh `state` per request, the callback listener;
// - which URLs a browser may be sent to, and only after the host has shown the server and the host;
// - refusing an authorization server that does not advertise PKCE S256 (MCP authorization spec,
//   "Authorization Code Protection": clients MUST refuse when support cannot be verified);
// - background sessions never open a browser: they end in `auth_required` ("Sign in again").
import { randomBytes } from 'node:crypto';
import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '@shared/config';
import { MooringError } from '../errors';
import { assertSafeAuthorizationUrl } from './authorizationUrl';
import { ANY_ISSUER, OAuthStore, type IssuerEntry } from './oauthStore';
import {
  DEFAULT_CALLBACK_TIMEOUT_MS,
  listenForCallback,
  redirectUrlFor,
  type CallbackWait,
} from './redirectListener';

/** What the UI or CLI shows before a browser opens: which server sends the user where. */
export interface AuthorizationPrompt {
  server: string;
  /** The host of the authorization URL (what the user is about to trust). */
  host: string;
  url: URL;
}

/** Shows the prompt and opens the URL (CLI: print + xdg-open; app: a dialog; tests: fetch). */
export type AuthorizationOpener = (prompt: AuthorizationPrompt) => Promise<void>;

export interface OAuthProviderOptions {
  config: Pick<ServerConfig, 'name' | 'url'>;
  store: OAuthStore;
  /** settings.oauthRedirectPort. */
  redirectPort: number;
  /** Present only while the user asked to sign in; without it a needed sign-in ends in `auth_required`. */
  opener?: AuthorizationOpener;
  /** An https URL of Mooring's Client ID Metadata Document, used where the server supports CIMD. */
  clientMetadataUrl?: string;
  clientName?: string;
  callbackTimeoutMs?: number;
  /**
   * RFC 8414 §3.3: the metadata's `issuer` must equal the authorization server URL ('strict', the SDK's
   * check, the default). 'same-origin' also accepts an issuer on the same origin whose path is a prefix of
   * the URL's (a tenant path served with the host's issuer), and still refuses any other origin.
   */
  issuerCheck?: 'strict' | 'same-origin';
}

export const signInHint = (server: string) => `Sign in again: mooring mcp login ${server}`;

export function authRequired(server: string, why: string, cause?: unknown): MooringError {
  return new MooringError('auth_required', `"${server}" ${why}`, signInHint(server), { cause });
}

/** The signed-in state the UI shows ("the signed-in account or scopes where known"). */
export interface SignInState {
  signedIn: boolean;
  issuer?: string;
  scope?: string;
  expiresAt?: number;
  /** When the tokens were saved (the sign-in, or the last refresh). */
  savedAt?: number;
  refreshable?: boolean;
}

export class MooringOAuthProvider implements OAuthClientProvider {
  readonly server: string;
  readonly resource: string;
  private discovery?: OAuthDiscoveryState;
  private expectedState?: string;
  private pending?: CallbackWait;

  constructor(private readonly opts: OAuthProviderOptions) {
    if (!opts.config.url) throw new MooringError('config_invalid', `Server "${opts.config.name}" has no URL`);
    this.server = opts.config.name;
    this.resource = opts.config.url;
  }

  get interactive(): boolean {
    return !!this.opts.opener;
  }

  get redirectUrl(): string {
    return redirectUrlFor(this.opts.redirectPort);
  }

  get clientMetadataUrl(): string | undefined {
    return this.opts.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    // A public native client (RFC 8252 §8.4) unless the server only takes a confidential method.
    const methods = this.discovery?.authorizationServerMetadata?.token_endpoint_auth_methods_supported;
    const method = !methods?.length || methods.includes('none') ? 'none' : methods[0]!;
    return {
      client_name: this.opts.clientName ?? 'Mooring',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: method,
    };
  }

  async state(): Promise<string> {
    this.expectedState = randomBytes(32).toString('base64url');
    return this.expectedState;
  }

  // ---- client registration and tokens, keyed by issuer --------------------------------------------

  private entry() {
    return this.opts.store.read(this.server, this.resource);
  }

  private update(change: Parameters<OAuthStore['update']>[2]): Promise<void> {
    return this.opts.store.update(this.server, this.resource, change);
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const e = await this.entry();
    return (ctx ? e.issuers[ctx.issuer]?.client : undefined) ?? e.issuers[ANY_ISSUER]?.client;
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? ANY_ISSUER;
    await this.update((e) => {
      (e.issuers[issuer] ??= {}).client = info;
      // A client id the user entered is now bound to the issuer that accepted it.
      if (issuer !== ANY_ISSUER && e.issuers[ANY_ISSUER]?.client?.client_id === info.client_id)
        delete e.issuers[ANY_ISSUER]!.client;
    });
  }

  /** A client id (and secret) the user registered by hand, for servers without dynamic registration. */
  async setUserClient(client: { client_id: string; client_secret?: string }): Promise<void> {
    await this.update((e) => {
      (e.issuers[ANY_ISSUER] ??= {}).client = { ...client, redirect_uris: [this.redirectUrl] };
    });
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const e = await this.entry();
    const issuer = ctx?.issuer ?? e.current;
    return issuer ? e.issuers[issuer]?.tokens : undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer ?? ANY_ISSUER;
    const expiresAt =
      typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined;
    await this.update((e) => {
      const slot: IssuerEntry = (e.issuers[issuer] ??= {});
      slot.tokens = tokens;
      slot.savedAt = Date.now();
      if (expiresAt === undefined) delete slot.expiresAt;
      else slot.expiresAt = expiresAt;
      e.current = issuer;
      if (this.discovery) e.discovery = this.discovery;
    });
    // The verifier has done its job once a code was exchanged (or was never needed for a refresh).
    await this.opts.store.deleteVerifier(this.server).catch(() => undefined);
  }

  /** Signed-in state for the UI; never the tokens themselves. */
  async signInState(): Promise<SignInState> {
    const e = await this.entry();
    const slot = e.current ? e.issuers[e.current] : undefined;
    if (!slot?.tokens) return { signedIn: false };
    return {
      signedIn: true,
      issuer: e.current!,
      ...(slot.tokens.scope ? { scope: slot.tokens.scope } : {}),
      ...(slot.expiresAt ? { expiresAt: slot.expiresAt } : {}),
      ...(slot.savedAt ? { savedAt: slot.savedAt } : {}),
      refreshable: !!slot.tokens.refresh_token,
    };
  }

  /** True when the access token expires within `marginMs` and a refresh token can renew it first. */
  async expiresSoon(marginMs = 60_000): Promise<boolean> {
    const e = await this.entry();
    const slot = e.current ? e.issuers[e.current] : undefined;
    return !!(slot?.tokens?.refresh_token && slot.expiresAt && slot.expiresAt - Date.now() < marginMs);
  }

  // ---- PKCE verifier and discovery ------------------------------------------------------------------

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.opts.store.setVerifier(this.server, codeVerifier);
  }

  async codeVerifier(): Promise<string> {
    const v = await this.opts.store.getVerifier(this.server);
    if (!v) throw authRequired(this.server, 'has no sign-in in progress (the PKCE verifier is gone)');
    return v;
  }

  /** True when this provider checks the metadata issuer itself (the SDK's check is then skipped). */
  get checksIssuer(): boolean {
    return this.opts.issuerCheck === 'same-origin';
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    const m = state.authorizationServerMetadata;
    if (m && this.checksIssuer && !issuerAcceptable(m.issuer, String(state.authorizationServerUrl)))
      throw new MooringError(
        'refused',
        `The sign-in to "${this.server}" was stopped: the authorization server at ${String(state.authorizationServerUrl)} calls itself ${m.issuer} (issuer mismatch, RFC 8414 §3.3)`,
        'Someone may be impersonating the authorization server. If it keeps happening, contact the server operator.',
      );
    // Only a server with metadata can say; the 2025-03-26 fallback (no metadata) keeps PKCE S256 anyway.
    if (m && !m.code_challenge_methods_supported?.includes('S256'))
      throw new MooringError(
        'refused',
        `The authorization server of "${this.server}" (${safeHost(m.issuer)}) does not advertise PKCE S256 support, so Mooring will not sign in there`,
        'Ask the server operator to enable PKCE with S256 (code_challenge_methods_supported); it protects your sign-in from interception.',
      );
    this.discovery = state;
    // Kept only beside tokens or a registration: a failed first contact leaves nothing behind.
    await this.update((e) => {
      if (Object.keys(e.issuers).length) e.discovery = state;
    });
  }

  /**
   * Whether the server offers an OAuth sign-in, as this process's discovery found it: false when it found
   * neither protected-resource nor authorization-server metadata (a server that wants a header instead);
   * undefined before any discovery.
   */
  offersOAuth(): boolean | undefined {
    if (!this.discovery) return undefined;
    return Boolean(this.discovery.resourceMetadata || this.discovery.authorizationServerMetadata);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return this.discovery ?? (this.discovery = (await this.entry()).discovery);
  }

  async hasDiscovery(): Promise<boolean> {
    return !!(await this.discoveryState());
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all') {
      this.discovery = undefined;
      await this.opts.store.forget(this.server);
    } else if (scope === 'client' || scope === 'tokens') {
      await this.update((e) => {
        for (const slot of Object.values(e.issuers))
          if (scope === 'client') delete slot.client;
          else {
            delete slot.tokens;
            delete slot.expiresAt;
          }
      });
    } else if (scope === 'verifier') await this.opts.store.deleteVerifier(this.server);
    else {
      this.discovery = undefined;
      await this.update((e) => delete e.discovery);
    }
  }

  // ---- the browser round trip -----------------------------------------------------------------------

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const url = assertSafeAuthorizationUrl(authorizationUrl, this.server);
    if (!this.opts.opener) throw authRequired(this.server, 'needs you to sign in');
    const state = this.expectedState;
    if (!state || url.searchParams.get('state') !== state)
      throw new MooringError('internal', 'The authorization request carries no state from this provider');
    this.pending?.close();
    this.pending = await listenForCallback({
      port: this.opts.redirectPort,
      state,
      server: this.server,
      timeoutMs: this.opts.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    });
    try {
      await this.opts.opener({ server: this.server, host: url.host, url });
    } catch (err) {
      this.cancelPending();
      throw err;
    }
  }

  /**
   * The callback of the authorization request just sent (state already checked), or undefined when no
   * browser round trip is in progress. Waits for the user, up to the callback timeout.
   */
  async takeAuthorizationResponse(): Promise<URLSearchParams | undefined> {
    const p = this.pending;
    if (!p) return undefined;
    this.pending = undefined;
    this.expectedState = undefined;
    return p.result;
  }

  cancelPending(): void {
    this.pending?.close();
    this.pending = undefined;
  }
}

/** The issuer equals the server URL, or is on its origin with a path the URL's path extends. */
export function issuerAcceptable(issuer: string, serverUrl: string): boolean {
  let i: URL, a: URL;
  try {
    i = new URL(issuer);
    a = new URL(serverUrl);
  } catch {
    return false;
  }
  if (i.origin !== a.origin || i.search || i.hash) return false;
  const ip = i.pathname.replace(/\/+$/, '');
  const ap = a.pathname.replace(/\/+$/, '');
  return ap === ip || ap.startsWith(`${ip}/`);
}

function safeHost(url: string | undefined): string {
  try {
    return new URL(url!).host;
  } catch {
    return String(url);
  }
}
