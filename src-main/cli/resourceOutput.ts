// What `mooring mcp read` does with a resource's bytes: saved to files it names (never base64 on the
// terminal), like `mcp call`'s media (callOutput.ts). The file names are ours, never the server's.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ResourceContentView } from '@shared/resources';
import { extensionFor } from './callOutput';

export async function saveBlobs(
  contents: ResourceContentView[],
  opts: { dir?: string },
): Promise<Array<ResourceContentView & { file?: string }>> {
  if (!contents.some((c) => c.kind === 'blob')) return contents;
  let dir: string;
  if (opts.dir) {
    dir = resolve(opts.dir);
    await mkdir(dir, { recursive: true });
  } else dir = await mkdtemp(join(tmpdir(), 'mooring-read-'));
  let n = 0;
  const out: Array<ResourceContentView & { file?: string }> = [];
  for (const c of contents) {
    if (c.kind !== 'blob') {
      out.push(c);
      continue;
    }
    const file = join(dir, `resource-${++n}.${extensionFor(c.mimeType)}`);
    await writeFile(file, Buffer.from(c.base64, 'base64'), { mode: 0o600 });
    out.push({ ...c, file });
  }
  return out;
}
