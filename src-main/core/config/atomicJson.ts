// Every write is atomic (ARCHITECTURE.md, "Data on disk"): write-file-atomic writes a temp file in the
// same directory, fsyncs it and renames it over the target, so a crash leaves the old or the new file.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

const isPosix = process.platform !== 'win32';

/** Creates the directory (0700 on POSIX: it holds the user's server commands and settings). */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, ...(isPosix ? { mode: 0o700 } : {}) });
}

/** Pretty JSON, 2-space indent, trailing newline, written atomically with mode 0600 on POSIX. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<string> {
  await ensurePrivateDir(dirname(file));
  const text = `${JSON.stringify(value, null, 2)}\n`;
  await writeFileAtomic(file, text, { encoding: 'utf8', fsync: true, ...(isPosix ? { mode: 0o600 } : {}) });
  return text;
}

/** The file's text, or null when it does not exist. */
export async function readTextIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
