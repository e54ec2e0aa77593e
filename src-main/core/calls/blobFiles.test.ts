// Saved blobs never follow a planted link (calls/blobFiles.ts): a cloned repository's `out/image-1.png` that
// links to a file of the user's is left alone with its target unchanged, and the bytes go to a fresh name.
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/servers';
import { writeBlobFiles } from './blobFiles';

describe('writeBlobFiles', () => {
  it('skips a planted link and a taken name; the link target is never written', async () => {
    const root = tempDir('mooring-blobs-');
    const target = join(root, 'bashrc');
    writeFileSync(target, 'export PATH=$PATH\n');
    const out = join(root, 'out');
    mkdirSync(out);
    symlinkSync(target, join(out, 'image-1.png'));
    symlinkSync(join(root, 'missing'), join(out, 'image-2.png')); // dangling: would create its target
    writeFileSync(join(out, 'audio-1.wav'), 'mine');

    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const files = await writeBlobFiles(
      [
        { kind: 'image', bytes, mimeType: 'image/png' },
        { kind: 'audio', bytes, mimeType: 'audio/wav' },
      ],
      { dir: out, tempPrefix: 'unused-' },
    );
    expect(files).toEqual([join(out, 'image-3.png'), join(out, 'audio-2.wav')]);
    expect(readFileSync(target, 'utf8')).toBe('export PATH=$PATH\n');
    expect(() => lstatSync(join(root, 'missing'))).toThrow();
    expect(readFileSync(join(out, 'audio-1.wav'), 'utf8')).toBe('mine');
    expect([...readFileSync(files[0]!)]).toEqual([...bytes]);
    expect(lstatSync(files[0]!).mode & 0o777).toBe(0o600);
  });
});
