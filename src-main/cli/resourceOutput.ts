// What `mooring mcp read` does with a resource's bytes: saved to files it names (never base64 on the
// terminal), like `mcp call`'s media (core/calls/blobFiles.ts).
import type { ResourceContentView } from '@shared/resources';
import { writeBlobFiles } from '../core/calls/blobFiles';

export async function saveBlobs(
  contents: ResourceContentView[],
  opts: { dir?: string },
): Promise<Array<ResourceContentView & { file?: string }>> {
  const blobs = contents.flatMap((c) =>
    c.kind === 'blob'
      ? [{ kind: 'resource', bytes: Buffer.from(c.base64, 'base64'), mimeType: c.mimeType }]
      : [],
  );
  const files = await writeBlobFiles(blobs, { dir: opts.dir, tempPrefix: 'mooring-read-' });
  let n = 0;
  return contents.map((c) => (c.kind === 'blob' ? { ...c, file: files[n++]! } : c));
}
