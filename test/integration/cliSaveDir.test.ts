// `mooring mcp call … --save-dir` (the README's example) in a folder with a planted link: the real CLI and
// server-everything's get-tiny-image. The link's target keeps its content; the image goes to a fresh name
// (calls/blobFiles.ts; `mcp read --save-dir` writes through the same function).
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMooring } from '../helpers/cli';
import { EVERYTHING, tempDir } from '../helpers/servers';

describe('mcp call --save-dir', () => {
  it('never writes through a planted link', async () => {
    const home = tempDir('mooring-savedir-');
    const repo = tempDir('mooring-savedir-repo-');
    const bashrc = join(repo, 'bashrc');
    writeFileSync(bashrc, 'alias ll="ls -l"\n');
    mkdirSync(join(repo, 'out'));
    symlinkSync(bashrc, join(repo, 'out', 'image-1.png'));
    const add = await runMooring(home, ['mcp', 'add', 'everything', '--all-tools', '--', 'node', EVERYTHING]);
    expect(add.code, add.stderr).toBe(0);

    const run = await runMooring(home, [
      'mcp',
      'call',
      'everything',
      'get-tiny-image',
      '--yes',
      '--save-dir',
      join(repo, 'out'),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(bashrc, 'utf8')).toBe('alias ll="ls -l"\n');
    expect(run.stdout).toContain(`saved to ${join(repo, 'out', 'image-2.png')}`);
    expect(
      readFileSync(join(repo, 'out', 'image-2.png'))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(readdirSync(join(repo, 'out')).sort()).toEqual(['image-1.png', 'image-2.png']);
  });
});
