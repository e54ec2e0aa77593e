// The auth service: sign-in state, sign-in and sign-out of one configured remote server, for the
// app's Sign in button and `mooring mcp login|logout NAME` alike. A sign-in takes the same path as a
// real session (secrets resolved, every fetch through the SSRF guard), then the server's session
// restarts with the new tokens.
import type { ServerConfig } from '@shared/config';
import type { LogLine } from '@shared/session';
import { MooringError, toErrorData } from '../errors';
import type { SessionActorOptions } from '../mcp/sessionActor';
import { isSafeAuthorizationUrl } from './authorizationUrl';
import type { OAuthManager, SignInResult } from './oauthManager';
import type { AuthorizationOpener, SignInState } from './oauthProvider';
import { isRemoteTransport } from '@shared/transports';

export interface AuthServiceDeps {
  oauth: OAuthManager;
  /** The configured server of that name; throws `not_found`. */
  serverConfig: (name: string) => Promise<ServerConfig>;
  /** The session options every connect uses (prepare, guarded fetch, tuning). */
  session: Omit<SessionActorOptions, 'config' | 'authProviderFor'>;
  /** A fresh session for the server (no-op when it is not running). */
  restart: (name: string) => Promise<void>;
  log: (line: LogLine) => void;
}

export type AuthState = { remote: false } | ({ remote: true } & SignInState);

export interface SignInRequest {
  /** Shows the server and the host, then opens the URL. */
  opener: AuthorizationOpener;
  /** A client id the user registered by hand, for servers without dynamic registration. */
  client?: { client_id: string; client_secret?: string };
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  async state(name: string): Promise<AuthState> {
    const config = await this.deps.serverConfig(name);
    if (!isRemoteTransport(config.transport)) return { remote: false };
    return { remote: true, ...(await this.deps.oauth.signInState(config)) };
  }

  /** Signs in (the opener shows the host and opens the browser), then restarts the server's session. */
  async signIn(name: string, request: SignInRequest): Promise<SignInResult> {
    const config = await this.deps.serverConfig(name);
    const result = await this.deps.oauth.signIn(config, {
      opener: request.opener,
      ...(request.client ? { client: request.client } : {}),
      session: this.deps.session,
    });
    await this.deps.restart(name);
    return result;
  }

  /**
   * The app's sign-in: resolves with the authorization URL and its host as soon as the flow has them
   * (the UI shows the host and opens the URL only after the user agrees), or with empty strings when
   * already signed in. The flow finishes in the background on the loopback callback; a failure after
   * the hand-over goes to the server's log, and its status event tells the UI.
   */
  begin(name: string): Promise<{ url: string; host: string }> {
    return new Promise((resolve, reject) => {
      let handedOver = false;
      this.signIn(name, {
        opener: async ({ url, host }) => {
          if (!isSafeAuthorizationUrl(url.toString()))
            throw new MooringError(
              'refused',
              `Refusing to open ${url.protocol} URL ${host}`,
              'Only https (or loopback http) sign-in pages are opened.',
            );
          handedOver = true;
          resolve({ url: url.toString(), host });
        },
      }).then(
        () => {
          if (!handedOver) resolve({ url: '', host: '' });
        },
        (err: unknown) => {
          if (!handedOver) reject(err);
          else
            this.deps.log({
              server: name,
              at: Date.now(),
              source: 'host',
              level: 'error',
              text: `sign-in failed: ${toErrorData(err).message}`,
            });
        },
      );
    });
  }

  /** Forgets the server's tokens and client registration, then restarts its session signed out. */
  async signOut(name: string): Promise<void> {
    await this.deps.serverConfig(name); // a clear not_found for a typo
    await this.forget(name);
    await this.deps.restart(name);
  }

  /** Forgets what the keychain holds for this server's sign-in (when the server is removed). */
  forget(name: string): Promise<void> {
    return this.deps.oauth.signOut(name);
  }
}
