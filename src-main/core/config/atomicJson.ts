// Every write is atomic (docs/data-on-disk.md, "Data on disk"): write-file-atomic writes a temp file in the
// same directory, fsyncs it and renames it over the target, so a crash leaves the old or the new file.
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
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

/** The file's text, or null when it does not exist; synchronous, for a store's check on the call path. */
export function readTextIfExistsSync(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * What tells one version of a file from the next without reading it: an atomic write renames a new file
 * over the old one, so its inode, change time and usually its size differ. `null`: the file is missing.
 */
export type FileStamp = string | null;

const stampOf = (s: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | undefined) =>
  s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : null;

/** One `stat` (about a microsecond and a half): the file's stamp now. */
export function fileStampSync(file: string): FileStamp {
  return stampOf(statSync(file, { throwIfNoEntry: false }));
}

export async function fileStamp(file: string): Promise<FileStamp> {
  try {
    return stampOf(await stat(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
