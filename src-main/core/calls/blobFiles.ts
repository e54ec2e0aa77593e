// Bytes from a server (a tool result's images, audio and binary resources; a resource read's blobs)
// written to files for a person to open: `mooring mcp call` and `mooring mcp read` (never base64 on the
// terminal). The names are ours (kind, number, an extension from a fixed table), never the server's.
// A folder may be a cloned repository's, with links planted where our names would go (`out/image-1.png ->
// ~/.bashrc`): each file is created new, exclusively and without following a link (O_CREAT | O_EXCL |
// O_NOFOLLOW), and a name that is taken — by a file or a link — is skipped for the next number.
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'text/plain': 'txt',
  'application/json': 'json',
  'application/pdf': 'pdf',
};

/** A file extension from a fixed table (never from the server), `bin` when unknown. */
export const extensionFor = (mimeType: string | undefined): string => EXTENSIONS[mimeType ?? ''] ?? 'bin';

export interface SavedBlob {
  kind: string;
  bytes: Uint8Array;
  mimeType?: string | undefined;
}

/**
 * Writes each blob (mode 0600) to `dir` (made when missing) or to a new temp folder named with
 * `tempPrefix`; returns the file of each, in order. Files are numbered per kind: image-1, image-2, audio-1.
 */
export async function writeBlobFiles(
  blobs: readonly SavedBlob[],
  opts: { dir?: string | undefined; tempPrefix: string },
): Promise<string[]> {
  if (!blobs.length) return [];
  let dir: string;
  if (opts.dir) {
    dir = resolve(opts.dir);
    await mkdir(dir, { recursive: true });
  } else dir = await mkdtemp(join(tmpdir(), opts.tempPrefix));
  const counts: Record<string, number> = {};
  const files: string[] = [];
  for (const b of blobs) {
    for (;;) {
      const n = (counts[b.kind] = (counts[b.kind] ?? 0) + 1);
      const file = join(dir, `${b.kind}-${n}.${extensionFor(b.mimeType)}`);
      if (!(await createNew(file, b.bytes))) continue;
      files.push(file);
      break;
    }
  }
  return files;
}

/** O_NOFOLLOW where the platform has it (not on Windows, where creating a link needs privileges). */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/** Writes `bytes` to a file that did not exist (never through a link); false when the name is taken. */
async function createNew(file: string, bytes: Uint8Array): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, CREATE_NEW, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') return false;
    throw err;
  }
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  return true;
}
