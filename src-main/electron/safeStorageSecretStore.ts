// Secrets for the packaged app when keytar cannot load (it is archived upstream, and its native build must
// match Electron's): one file in the home, `secrets.enc` (0600), whose whole content is encrypted by
// Electron's safeStorage with a key the OS keeps (macOS Keychain, Windows DPAPI, the Linux Secret Service
// or KWallet). Where the OS offers no such key, safeStorage on Linux falls back to a fixed, public key; that
// is plain text in disguise, so this store then says it is unavailable (docs/data-on-disk.md, "Data on disk":
// nothing secret in any file). It takes the cipher as a parameter so it runs and is tested without Electron.
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { ensurePrivateDir, readTextIfExists } from '../core/config/atomicJson';
import { withFileLock } from '../core/config/fileLock';
import { MooringError } from '../core/errors';
import { secretUnavailable, type SecretAvailability, type SecretStore } from '../core/secrets/secretStore';
import writeFileAtomic from 'write-file-atomic';

/** The part of Electron's `safeStorage` this store uses. */
export interface StringCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: 'basic_text' means a fixed key, i.e. no protection. */
  getSelectedStorageBackend?(): string;
}

export const SECRETS_FILE_NAME = 'secrets.enc';
const FORMAT = 'mooring-secrets';

interface FileShape {
  format: typeof FORMAT;
  version: 1;
  /** base64 of safeStorage.encryptString(JSON.stringify({ [account]: value })). */
  data: string;
}

export interface SafeStorageSecretStoreOptions {
  /** Mooring's home directory; the file is `secrets.enc` in it. */
  home: string;
  cipher: StringCipher;
  platform?: NodeJS.Platform;
}

export class SafeStorageSecretStore implements SecretStore {
  readonly file: string;
  private readonly cipher: StringCipher;
  private readonly platform: NodeJS.Platform;

  constructor(opts: SafeStorageSecretStoreOptions) {
    this.file = join(opts.home, SECRETS_FILE_NAME);
    this.cipher = opts.cipher;
    this.platform = opts.platform ?? process.platform;
  }

  /** Why the OS cannot protect the key, or undefined when it can. */
  private unavailableReason(): string | undefined {
    if (!this.cipher.isEncryptionAvailable())
      return 'the operating system offers no key to encrypt secrets with (Electron safeStorage is unavailable)';
    if (this.platform === 'linux' && this.cipher.getSelectedStorageBackend?.() === 'basic_text')
      return 'no Secret Service or KWallet is running, so secrets could only be stored with a fixed key; Mooring refuses that';
    return undefined;
  }

  /** A change holds the file's lock (config/fileLock.ts): the app and `Mooring --mcp-server` share a home. */
  private locked<T>(op: () => Promise<T>): Promise<T> {
    return withFileLock(this.file, op);
  }

  private async readAll(): Promise<Map<string, string>> {
    const reason = this.unavailableReason();
    if (reason) throw secretUnavailable(reason);
    const text = await readTextIfExists(this.file);
    if (text === null) return new Map();
    let entries: unknown;
    try {
      const shape = JSON.parse(text) as Partial<FileShape>;
      if (shape.format !== FORMAT || shape.version !== 1 || typeof shape.data !== 'string')
        throw new Error('not a Mooring secrets file of version 1');
      entries = JSON.parse(this.cipher.decryptString(Buffer.from(shape.data, 'base64')));
    } catch (err) {
      // Never overwritten: the user may get it back (e.g. the OS key returns after a profile restore).
      throw secretUnavailable(
        `${this.file} cannot be read (${(err as Error).message}); it is left as it is`,
        err,
      );
    }
    if (typeof entries !== 'object' || entries === null || Array.isArray(entries))
      throw secretUnavailable(`${this.file} does not hold a list of secrets; it is left as it is`);
    return new Map(
      Object.entries(entries as Record<string, unknown>).filter(([, v]) => typeof v === 'string'),
    ) as Map<string, string>;
  }

  private async writeAll(entries: Map<string, string>): Promise<void> {
    const data = this.cipher.encryptString(JSON.stringify(Object.fromEntries(entries))).toString('base64');
    const shape: FileShape = { format: FORMAT, version: 1, data };
    await ensurePrivateDir(join(this.file, '..'));
    const posix = this.platform !== 'win32';
    await writeFileAtomic(this.file, `${JSON.stringify(shape)}\n`, {
      encoding: 'utf8',
      fsync: true,
      ...(posix ? { mode: 0o600 } : {}),
    });
    if (posix) await chmod(this.file, 0o600);
  }

  get(account: string): Promise<string | null> {
    checkAccount(account);
    // Reads need no lock: every write replaces the file atomically.
    return this.readAll().then((entries) => entries.get(account) ?? null);
  }

  set(account: string, value: string): Promise<void> {
    checkAccount(account);
    return this.locked(async () => {
      const entries = await this.readAll();
      entries.set(account, value);
      await this.writeAll(entries);
    });
  }

  delete(account: string): Promise<boolean> {
    checkAccount(account);
    return this.locked(async () => {
      const entries = await this.readAll();
      if (!entries.delete(account)) return false;
      await this.writeAll(entries);
      return true;
    });
  }

  async available(): Promise<SecretAvailability> {
    const reason = this.unavailableReason();
    return reason ? { ok: false, reason } : { ok: true };
  }
}

function checkAccount(account: string): void {
  if (!account) throw new MooringError('internal', 'A secret needs a non-empty account name.');
}
