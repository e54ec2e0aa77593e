// Bytes from a server (a tool result's images, audio and binary resources; a resource read's blobs)
// written to files for a person to open: `mooring mcp call` and `mooring mcp read` (never base64 on the
// terminal). The names are ours (kind, number, an extension from a fixed table), never the server's.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
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
    const n = (counts[b.kind] = (counts[b.kind] ?? 0) + 1);
    const file = join(dir, `${b.kind}-${n}.${extensionFor(b.mimeType)}`);
    await writeFile(file, b.bytes, { mode: 0o600 });
    files.push(file);
  }
  return files;
}
