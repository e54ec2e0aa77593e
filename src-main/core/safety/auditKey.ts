// The key of the audit log's argument hashes (docs/data-on-disk.md, "Data on disk"): a plain SHA-256 of
// `{"id":6}` can be reversed by hashing guesses, so the log keys its hashes with HMAC-SHA-256 under a
// random key of the home. Equal arguments still compare equal within one home, and the log alone tells
// nothing. The key lives beside the log (`logs/audit.key`, 0600) and is made once: the app, the CLI and
// `mooring serve` share a home, so it is created under the file's cross-process lock and re-read there.
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { ensurePrivateDir, readTextIfExists } from '../config/atomicJson';
import { withFileLock } from '../config/fileLock';
import { MooringError } from '../errors';

const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}$/;

function parseKey(file: string, text: string): Buffer {
  const hex = text.trim();
  if (!KEY_TEXT.test(hex))
    throw new MooringError(
      'config_invalid',
      `${file} is not an audit key (64 hexadecimal digits), so Mooring cannot write the audit log.`,
      'Delete the file: Mooring makes a new key (argument hashes written before then will no longer match new ones).',
    );
  return Buffer.from(hex, 'hex');
}

/** The home's audit key, created on first use. Two processes asking at once get the same key. */
export async function loadAuditKey(file: string): Promise<Buffer> {
  const existing = await readTextIfExists(file);
  if (existing !== null) return parseKey(file, existing);
  await ensurePrivateDir(dirname(file));
  return withFileLock(file, async (lock) => {
    // Someone else may have made it while this process waited for the lock.
    const again = await readTextIfExists(file);
    if (again !== null) return parseKey(file, again);
    const key = randomBytes(KEY_BYTES);
    lock.assertHeld();
    await writeFileAtomic(file, `${key.toString('hex')}\n`, {
      encoding: 'utf8',
      fsync: true,
      ...(process.platform !== 'win32' ? { mode: 0o600 } : {}),
    });
    return key;
  });
}
