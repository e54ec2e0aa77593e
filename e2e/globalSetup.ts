// Builds the renderer before the suite when out/ is missing or older than the sources.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
// @ts-expect-error -- a plain .mjs helper shared with scripts/start.mjs
import { buildIsStale } from '../scripts/rendererFreshness.mjs';

export default function globalSetup(): void {
  const root = resolve(import.meta.dirname, '..');
  if (!(buildIsStale as (root: string) => boolean)(root)) return;
  execFileSync(
    process.execPath,
    [resolve(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
