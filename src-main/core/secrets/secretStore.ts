// Secrets live in the OS keychain behind one small interface (ARCHITECTURE.md, "The core, by room":
// secrets); nothing secret is ever written to a file, and there is no plaintext fallback: without a keychain,
// storing fails with a hint to use an environment-variable reference instead. Only a server that has a
// secret (or signs in) touches the keychain, so one without secrets runs on a machine without any.
import { NO_KEYCHAIN_TITLE, SET_UP_KEYCHAIN, USE_ENV_REFERENCE } from '@shared/keychainHelp';
import { MooringError } from '../errors';

export type SecretAvailability = { ok: true } | { ok: false; reason: string };

export interface SecretStore {
  /** The stored value, or null when there is none. Throws `secret_unavailable` without a keychain. */
  get(account: string): Promise<string | null>;
  set(account: string, value: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
  available(): Promise<SecretAvailability>;
}

/** The keychain service every Mooring secret is filed under. */
export const SECRET_SERVICE = 'Mooring';

/** What to do without a keychain (the wording is shared with the app: shared/keychainHelp.ts). */
export const NO_KEYCHAIN_HINT =
  `Mooring never stores server secrets in plain text. ${USE_ENV_REFERENCE} For example: ` +
  '--header "Authorization=Bearer ${env:API_TOKEN}". ' +
  `${SET_UP_KEYCHAIN} Or use the desktop app, which keeps secrets in a file encrypted by Electron safeStorage ` +
  'where the OS offers a key (macOS, Windows, a Linux desktop session). Servers without secrets need no keychain.';

const SAID = '\nThe keychain said: ';

/**
 * The error every secret store raises without a keychain: what it means first, then the keychain's own
 * words (often a D-Bus message) as details after the first line (shared/errors.ts, `splitErrorDetails`).
 */
export function secretUnavailable(reason: string, cause?: unknown): MooringError {
  return new MooringError('secret_unavailable', `${NO_KEYCHAIN_TITLE}${SAID}${reason}`, NO_KEYCHAIN_HINT, {
    cause,
  });
}

/** The keychain's own words in an error from `secretUnavailable` (the whole message for any other). */
export function keychainReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const at = message.indexOf(SAID);
  return at < 0 ? message : message.slice(at + SAID.length);
}

function checkAccount(account: string): void {
  if (!account) throw new MooringError('internal', 'A secret needs a non-empty account name.');
}

type Keytar = Pick<typeof import('keytar'), 'getPassword' | 'setPassword' | 'deletePassword'>;

/** Loads keytar on first use; an optional dependency, so a machine without it still runs. */
async function loadKeytar(): Promise<Keytar> {
  const mod = (await import('keytar')) as Keytar & { default?: Keytar };
  return mod.default ?? mod;
}

export interface KeytarSecretStoreOptions {
  /** Keychain service name; default "Mooring". Tests use their own so they never touch the user's. */
  service?: string;
  /** How keytar is loaded; default a dynamic import of the `keytar` package. */
  load?: () => Promise<Keytar>;
}

/** The OS keychain through keytar: macOS Keychain, Windows Credential Vault, Secret Service on Linux. */
export class KeytarSecretStore implements SecretStore {
  readonly service: string;
  private readonly load: () => Promise<Keytar>;
  private keytar: Promise<Keytar> | undefined;

  constructor(opts: KeytarSecretStoreOptions = {}) {
    this.service = opts.service ?? SECRET_SERVICE;
    this.load = opts.load ?? loadKeytar;
  }

  private async run<T>(op: (k: Keytar) => Promise<T>): Promise<T> {
    let keytar: Keytar;
    try {
      keytar = await (this.keytar ??= this.load());
    } catch (err) {
      this.keytar = undefined; // try again next time (e.g. after the package is installed)
      throw secretUnavailable(`the keytar module could not be loaded (${(err as Error).message})`, err);
    }
    try {
      return await op(keytar);
    } catch (err) {
      // keytar reports a missing or locked Secret Service, D-Bus, or Keychain as a plain Error.
      throw secretUnavailable((err as Error).message || String(err), err);
    }
  }

  get(account: string): Promise<string | null> {
    checkAccount(account);
    return this.run((k) => k.getPassword(this.service, account));
  }

  set(account: string, value: string): Promise<void> {
    checkAccount(account);
    return this.run((k) => k.setPassword(this.service, account, value));
  }

  delete(account: string): Promise<boolean> {
    checkAccount(account);
    return this.run((k) => k.deletePassword(this.service, account));
  }

  /** Probes the keychain with a read of an account that never exists. */
  async available(): Promise<SecretAvailability> {
    try {
      await this.get('mooring/availability-probe');
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: keychainReason(err) };
    }
  }
}

/**
 * FOR TESTS ONLY: an in-memory SecretStore for unit tests of other rooms. It forgets everything when the
 * process ends and must never be used by the app. `unavailable` makes it behave like a machine without a
 * keychain (every call throws `secret_unavailable`).
 */
export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>();
  constructor(private readonly opts: { unavailable?: string } = {}) {}

  private check(account: string): void {
    checkAccount(account);
    if (this.opts.unavailable) throw secretUnavailable(this.opts.unavailable);
  }
  async get(account: string): Promise<string | null> {
    this.check(account);
    return this.entries.get(account) ?? null;
  }
  async set(account: string, value: string): Promise<void> {
    this.check(account);
    this.entries.set(account, value);
  }
  async delete(account: string): Promise<boolean> {
    this.check(account);
    return this.entries.delete(account);
  }
  async available(): Promise<SecretAvailability> {
    return this.opts.unavailable ? { ok: false, reason: this.opts.unavailable } : { ok: true };
  }
}
