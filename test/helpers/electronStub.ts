// node_modules/electron laid out the way the electron package leaves it: without the runtime (its download
// skipped or failed), or after a download (path.txt, dist/version, an executable stub that prints its
// arguments). For tests of scripts/electronRuntime.mjs and the Electron suite's skip logic.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STUB_ELECTRON_VERSION = '41.10.0';

export function layElectronPackage(root: string, opts: { installJs?: string } = {}): string {
  const pkg = join(root, 'node_modules/electron');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'electron', version: STUB_ELECTRON_VERSION }),
  );
  if (opts.installJs !== undefined) writeFileSync(join(pkg, 'install.js'), opts.installJs);
  return pkg;
}

/** What a successful download leaves on Linux; `version` other than the package's makes a stale runtime. */
export function layElectronRuntime(root: string, version = STUB_ELECTRON_VERSION): void {
  const pkg = join(root, 'node_modules/electron');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'path.txt'), 'electron');
  writeFileSync(join(pkg, 'dist/version'), `v${version}`);
  writeFileSync(join(pkg, 'dist/electron'), '#!/bin/sh\necho "stub electron $*"\n');
  chmodSync(join(pkg, 'dist/electron'), 0o755);
}
