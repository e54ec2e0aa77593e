// Is out/ older than the sources it is built from, and if so, build it. One `electron-vite build` makes
// every bundle: the Electron main, the compiled CLI (out/main/cli.js, which `bin/mooring.mjs` runs), the
// preload and the renderer (docs/cli.md, "How the CLI ships"). Shared by `npm start`, `npm run cli`,
// the vitest and Playwright global setups, and the CLI's own stale-build warning.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What one build writes; a missing one means the build never ran (or failed half way). */
export const BUILD_OUTPUTS = [
  'out/main/index.js',
  'out/main/cli.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
];
const SOURCE_DIRS = ['shared', 'src-main', 'src-preload', 'src-renderer'];
const CONFIG_FILES = ['electron.vite.config.ts', 'package.json'];

/** Newest mtime under `dir`; tests are skipped (no bundle contains them, so editing one needs no build). */
function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    if (/\.test\.tsx?$/.test(entry.name)) continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * True when an output (a path under root) is missing, or a file under `sources` (folders or files under root)
 * is newer than the oldest output.
 */
export function outputsAreStale(root, { outputs, sources }) {
  const out = outputs.map((p) => join(root, p));
  if (!out.every((p) => existsSync(p))) return true;
  const built = Math.min(...out.map((p) => statSync(p).mtimeMs));
  const newest = sources
    .map((p) => join(root, p))
    .map((p) => {
      if (!existsSync(p)) return 0;
      return statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs;
    });
  return Math.max(...newest) > built;
}

/** True when out/ is missing a bundle, or a source under shared/, src-* (or the build's config) is newer. */
export function buildIsStale(root) {
  return outputsAreStale(root, { outputs: BUILD_OUTPUTS, sources: [...SOURCE_DIRS, ...CONFIG_FILES] });
}

/**
 * Builds when out/ is stale; true when it built. The build's own output goes to stderr, so a command run
 * after it (`npm run cli -- mcp list --json`) keeps a clean stdout. Throws when the build fails.
 */
export function buildIfStale(root) {
  if (!buildIsStale(root)) return false;
  const built = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: ['ignore', 2, 2] },
  );
  if (built.status !== 0)
    throw new Error(
      `electron-vite build failed (exit ${built.status ?? built.signal}); see its output above`,
    );
  return true;
}
