// OAuth for the whole core (ARCHITECTURE.md, "The core, by room": auth): one keychain-backed store, one background provider per remote
// server (uses and refreshes stored tokens, never opens a browser: a needed sign-in is `auth_required`),
// and sign-in / sign-out, which the UI's buttons and `mooring mcp login|logout NAME` call.
import { isRemoteServer, type ServerConfig } from '@shared/config';
import { DEFAULT_SETTINGS } from '@shared/settings';
import { MooringError } from '../errors';
import { SessionActor, type SessionActorOptions } from '../mcp/sessionActor';
import type { SecretStore } from '../secrets/secretStore';
import { transportAuth, type TransportAuth } from './authTransport';
import { MooringOAuthProvider, type AuthorizationOpener, type SignInState } from './oauthProvider';
import { OAuthStore } from './oauthStore';

export interface OAuthManagerOptions {
  secrets: SecretStore;
  /** settings.oauthRedirectPort, read at each sign-in so a settings change applies. */
  redirectPort?: () => number;
  /** Mooring's hosted Client ID Metadata Document (https), where the server supports CIMD. */
  clientMetadataUrl?: string;
  callbackTimeoutMs?: number;
  /** See OAuthProviderOptions.issuerCheck; default 'strict'. */
  issuerCheck?: 'strict' | 'same-origin';
  /** Learns every token read or stored (for the redactor). */
  onSecrets?: (values: string[]) => void;
}

export interface SignInOptions {
  /** Shows the server and the host, then opens the URL. */
  opener: AuthorizationOpener;
  /** A client id the user registered by hand, for servers without dynamic registration. */
  client?: { client_id: string; client_secret?: string };
  /** The same session options the core uses (prepare, guardFor, tuning), so sign-in takes the same path. */
  session?: Omit<SessionActorOptions, 'config' | 'authProviderFor'>;
}

export interface SignInResult extends SignInState {
  toolCount: number;
}

const isRemote = (c: ServerConfig) => isRemoteServer(c);

export class OAuthManager {
  readonly store: OAuthStore;
  private background = new Map<
    string,
    { url: string; auth: TransportAuth; provider: MooringOAuthProvider }
  >();

  constructor(private readonly opts: OAuthManagerOptions) {
    this.store = new OAuthStore(opts.secrets, opts.onSecrets);
  }

  private port(): number {
    return this.opts.redirectPort?.() ?? DEFAULT_SETTINGS.oauthRedirectPort;
  }

  /** A provider for one server; interactive when `opener` is given. */
  provider(config: ServerConfig, opener?: AuthorizationOpener): MooringOAuthProvider {
    return new MooringOAuthProvider({
      config,
      store: this.store,
      redirectPort: this.port(),
      ...(opener ? { opener } : {}),
      ...(this.opts.clientMetadataUrl ? { clientMetadataUrl: this.opts.clientMetadataUrl } : {}),
      ...(this.opts.callbackTimeoutMs ? { callbackTimeoutMs: this.opts.callbackTimeoutMs } : {}),
      ...(this.opts.issuerCheck ? { issuerCheck: this.opts.issuerCheck } : {}),
    });
  }

  /** For SessionActorOptions.authProviderFor: every http/sse server gets the background provider. */
  authFor = (config: ServerConfig): TransportAuth | undefined => {
    if (!isRemote(config)) return undefined;
    const cached = this.background.get(config.name);
    if (cached && cached.url === config.url) return cached.auth;
    const provider = this.provider(config);
    const auth = transportAuth(provider);
    this.background.set(config.name, { url: config.url!, auth, provider });
    return auth;
  };

  /**
   * Signs in through a throwaway session with an interactive provider: the server's own 401 starts the
   * flow, so discovery sees exactly what a real session sees. Resolves once tools are listed.
   */
  async signIn(config: ServerConfig, opts: SignInOptions): Promise<SignInResult> {
    if (!isRemote(config))
      throw new MooringError(
        'usage',
        `"${config.name}" runs as a local command (stdio); only http and sse servers sign in`,
        'Local servers take their credentials from env or headers: mooring mcp add NAME --secret-env K=V -- COMMAND',
      );
    const provider = this.provider(config, opts.opener);
    if (opts.client) await provider.setUserClient(opts.client);
    const actor = new SessionActor({
      ...opts.session,
      config,
      authProviderFor: () => transportAuth(provider),
    });
    try {
      await actor.start();
      const state = await provider.signInState();
      return { ...state, toolCount: actor.tools().length };
    } finally {
      provider.cancelPending();
      await actor.close();
    }
  }

  /** Sign out: forgets tokens, client registrations and any sign-in in progress. */
  async signOut(server: string): Promise<void> {
    this.background.get(server)?.provider.cancelPending();
    this.background.delete(server);
    await this.store.forget(server);
  }

  /** The core closes: a sign-in still waiting for its browser stops (and its loopback listener with it). */
  dispose(): void {
    for (const b of this.background.values()) b.provider.cancelPending();
    this.background.clear();
  }

  signInState(config: ServerConfig): Promise<SignInState> {
    if (!isRemote(config)) return Promise.resolve({ signedIn: false });
    return this.provider(config).signInState();
  }
}
