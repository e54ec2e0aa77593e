// OAuth state of remote servers, kept in the keychain only (ARCHITECTURE.md, "The core, by room": auth —
// tokens and client registrations live in the keychain keyed by server and issuer). One keychain entry per
// server holds its registrations and tokens per authorization-server issuer; the PKCE verifier of a sign-in
// in progress has its own entry. Nothing here is ever written to a file or a log. Reads are cached in memory
// (the transport asks for the bearer token before every request) and writes go through to the keychain,
// serialised per server. Without a keychain, a server that never signed in has nothing stored: reads answer
// "nothing", so servers without OAuth work on machines without a Secret Service; only storing fails.
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import type { SecretStore } from '../secrets/secretStore';

/** What the keychain holds for one issuer of one server. */
export interface IssuerEntry {
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** Epoch ms when the access token expires (from `expires_in` at save time), when the server said. */
  expiresAt?: number;
  /** Epoch ms when these tokens were saved (the sign-in, or the last refresh). */
  savedAt?: number;
}

export interface ServerAuthEntry {
  /** The server URL the entry was made for: an edited URL is a different resource, so the entry is ignored. */
  resource: string;
  /** Issuer of the most recently saved tokens (the transport's per-request read has no issuer). */
  current?: string;
  /** Keyed by issuer; `*` holds a client id the user entered before any issuer was known. */
  issuers: Record<string, IssuerEntry>;
  /**
   * The last discovery (protected resource + authorization server metadata): not secret, but kept with
   * the tokens so a new process can refresh before expiry and check the callback's issuer (SEP-2352).
   */
  discovery?: OAuthDiscoveryState;
}

/** The issuer key of a client registration the user entered by hand (`mooring mcp login --client-id`). */
export const ANY_ISSUER = '*';

export const authAccount = (server: string) => `mcp/${server}/oauth`;
export const verifierAccount = (server: string) => `mcp/${server}/oauth-pkce`;

const emptyEntry = (resource: string): ServerAuthEntry => ({ resource, issuers: {} });

/** The keychain side of OAuth, shared by every provider of the process so they never disagree. */
export class OAuthStore {
  private cache = new Map<string, ServerAuthEntry>();
  private queues = new Map<string, Promise<unknown>>();

  /** `onSecrets` learns every token and client secret read or stored, so the redactor can mask them. */
  constructor(
    readonly secrets: SecretStore,
    private readonly onSecrets?: (values: string[]) => void,
  ) {}

  private learn(entry: ServerAuthEntry): void {
    if (!this.onSecrets) return;
    const values: string[] = [];
    for (const e of Object.values(entry.issuers)) {
      const t = e.tokens as { access_token?: string; refresh_token?: string; id_token?: string } | undefined;
      values.push(
        ...[t?.access_token, t?.refresh_token, t?.id_token, e.client?.client_secret].filter(isText),
      );
    }
    if (values.length) this.onSecrets(values);
  }

  /** The server's entry; an entry made for another URL counts as none, and so does an unreachable keychain. */
  async read(server: string, resource: string): Promise<ServerAuthEntry> {
    let entry = this.cache.get(server);
    if (!entry) {
      let raw: string | null;
      try {
        raw = await this.secrets.get(authAccount(server));
      } catch (err) {
        // Nothing can have been stored without a keychain: not signed in. Not cached, so a keychain that
        // comes up later is read then.
        if (err instanceof MooringError && err.code === 'secret_unavailable') return emptyEntry(resource);
        throw err;
      }
      entry = parseEntry(raw) ?? emptyEntry(resource);
      this.learn(entry);
      this.cache.set(server, entry);
    }
    return entry.resource === resource ? entry : emptyEntry(resource);
  }

  /**
   * Applies `change` to the entry and writes it through, one change at a time per server. The entry is
   * read again from the keychain first, not from the cache: another Mooring process (the app next to
   * `mooring serve`) may have saved tokens since, and this write must not erase them.
   */
  update(server: string, resource: string, change: (e: ServerAuthEntry) => void): Promise<void> {
    const run = async () => {
      this.cache.delete(server);
      const current = await this.read(server, resource);
      const next: ServerAuthEntry = structuredClone(current);
      change(next);
      for (const [iss, e] of Object.entries(next.issuers))
        if (!e.client && !e.tokens) delete next.issuers[iss];
      if (next.current && !next.issuers[next.current]?.tokens) delete next.current;
      if (!Object.keys(next.issuers).length) delete next.discovery;
      this.learn(next);
      const empty = !Object.keys(next.issuers).length;
      // Nothing was stored and nothing is to be: no keychain round trip (and none needed without one).
      if (!(empty && !Object.keys(current.issuers).length))
        await storing(server, async () => {
          if (empty) await this.secrets.delete(authAccount(server));
          else await this.secrets.set(authAccount(server), JSON.stringify(next));
        });
      this.cache.set(server, next);
    };
    const prev = this.queues.get(server) ?? Promise.resolve();
    const p = prev.then(run, run);
    this.queues.set(
      server,
      p.catch(() => undefined),
    );
    return p;
  }

  getVerifier(server: string): Promise<string | null> {
    return this.secrets.get(verifierAccount(server));
  }

  setVerifier(server: string, verifier: string): Promise<void> {
    return storing(server, () => this.secrets.set(verifierAccount(server), verifier));
  }

  async deleteVerifier(server: string): Promise<void> {
    await this.secrets.delete(verifierAccount(server));
  }

  /** Sign out: forgets tokens, registrations and any sign-in in progress of the server. */
  async forget(server: string): Promise<void> {
    const run = async () => {
      this.cache.delete(server);
      await this.secrets.delete(authAccount(server));
      await this.secrets.delete(verifierAccount(server));
    };
    const prev = this.queues.get(server) ?? Promise.resolve();
    const p = prev.then(run, run);
    this.queues.set(
      server,
      p.catch(() => undefined),
    );
    await p;
  }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Runs a keychain write of a sign-in; without a keychain, says what works instead. */
async function storing<T>(server: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof MooringError) || err.code !== 'secret_unavailable') throw err;
    throw new MooringError(
      'secret_unavailable',
      `Signing in to "${server}" needs a keychain to keep its tokens. ${err.message}`,
      `Servers without sign-in work without one. For this one: start a keychain (on Linux, a Secret Service such as gnome-keyring or KWallet on the session D-Bus); or sign in from the desktop app, which keeps tokens in a file encrypted by Electron safeStorage where the OS offers a key; or give it a token from the environment instead of signing in: a header "Authorization: Bearer \${env:NAME}" with NAME exported before Mooring starts.`,
      { cause: err },
    );
  }
}

function parseEntry(raw: string | null): ServerAuthEntry | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as ServerAuthEntry;
    return typeof v?.resource === 'string' && v.issuers && typeof v.issuers === 'object' ? v : undefined;
  } catch {
    return undefined; // a damaged entry is as good as none: the user signs in again
  }
}
