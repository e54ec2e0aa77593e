// Is out/ older than the sources it is built from? Shared by `npm start` and the e2e setup.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** True when out/ is missing a bundle or any source under shared/, src-* is newer than it. */
export function buildIsStale(root) {
  const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) =>
    join(root, p),
  );
  if (!outputs.every((p) => existsSync(p))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const sources = ['shared', 'src-main', 'src-preload', 'src-renderer'].map((d) =>
    newestMtime(join(root, d)),
  );
  return Math.max(...sources, statSync(join(root, 'electron.vite.config.ts')).mtimeMs) > built;
}
