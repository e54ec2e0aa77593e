// Which secret store a host uses: the OS keychain (keytar) while it loads and answers, else a fallback the
// host provides (the desktop shell's encrypted file on Electron safeStorage). keytar is archived upstream
// and its native build must match the runtime, so the packaged app cannot count on it; existing keychain
// entries must keep working all the same. So:
//   - the choice is made once, at first use: the keychain if it is available, else the fallback if that is
//     available, else the keychain (whose error says what to do);
//   - reads try the chosen store, then the other one when it answers (a secret written while keytar could
//     not load is still found once it loads again, and a keychain entry is still found from the fallback);
//   - writes go to the chosen store, and a copy in the other store is removed, so a stale value can never
//     be read back later; deletes remove from both.
import { MooringError } from '../errors';
import type { SecretAvailability, SecretStore } from './secretStore';

export interface FallbackSecretStoreOptions {
  keychain: SecretStore;
  fallback: SecretStore;
  /** Told once which store was chosen and why (for the log). */
  onChoice?: (choice: SecretStoreChoice) => void;
}

export interface SecretStoreChoice {
  store: 'keychain' | 'fallback';
  /** Why the keychain was not chosen, when it was not. */
  keychainUnavailable?: string;
}

const isUnavailable = (err: unknown) => err instanceof MooringError && err.code === 'secret_unavailable';

export class FallbackSecretStore implements SecretStore {
  private choice: Promise<{ chosen: SecretStore; other: SecretStore }> | undefined;

  constructor(private readonly opts: FallbackSecretStoreOptions) {}

  private choose(): Promise<{ chosen: SecretStore; other: SecretStore }> {
    return (this.choice ??= (async () => {
      const { keychain, fallback } = this.opts;
      const k = await keychain.available();
      if (k.ok) {
        this.opts.onChoice?.({ store: 'keychain' });
        return { chosen: keychain, other: fallback };
      }
      const f = await fallback.available();
      this.opts.onChoice?.({ store: f.ok ? 'fallback' : 'keychain', keychainUnavailable: k.reason });
      return f.ok ? { chosen: fallback, other: keychain } : { chosen: keychain, other: fallback };
    })());
  }

  /** Which store serves, once chosen (for diagnostics). */
  async chosen(): Promise<'keychain' | 'fallback'> {
    return (await this.choose()).chosen === this.opts.keychain ? 'keychain' : 'fallback';
  }

  async get(account: string): Promise<string | null> {
    const { chosen, other } = await this.choose();
    const value = await chosen.get(account);
    if (value !== null) return value;
    return other.get(account).catch((err: unknown) => {
      if (isUnavailable(err)) return null;
      throw err;
    });
  }

  async set(account: string, value: string): Promise<void> {
    const { chosen, other } = await this.choose();
    await chosen.set(account, value);
    await other.delete(account).catch((err: unknown) => {
      if (!isUnavailable(err)) throw err;
    });
  }

  async delete(account: string): Promise<boolean> {
    const { chosen, other } = await this.choose();
    const here = await chosen.delete(account);
    const there = await other.delete(account).catch((err: unknown) => {
      if (isUnavailable(err)) return false;
      throw err;
    });
    return here || there;
  }

  async available(): Promise<SecretAvailability> {
    return (await this.choose()).chosen.available();
  }
}
