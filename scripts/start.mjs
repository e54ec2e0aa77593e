// `npm start` (issue 5): build when out/ is missing or stale, then run the Electron app if its runtime
// is installed; otherwise say so in one line and start browser mode (`mooring web`) instead.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIsStale } from './rendererFreshness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (p) => join(root, 'node_modules', p);

if (buildIsStale(root)) {
  const built = spawnSync(
    process.execPath,
    [bin('electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** The path file the electron package writes once its binary is downloaded; absent when it was skipped. */
function electronBinary() {
  if (!existsSync(bin('electron/dist'))) return undefined;
  try {
    const path = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("electron"))'], {
      cwd: root,
      encoding: 'utf8',
    });
    return path.status === 0 && existsSync(path.stdout) ? path.stdout : undefined;
  } catch {
    return undefined;
  }
}

const electron = electronBinary();
const [cmd, args] = electron
  ? [electron, [root, ...process.argv.slice(2)]]
  : [process.execPath, [join(root, 'bin/mooring.mjs'), 'web', ...process.argv.slice(2)]];
if (!electron)
  console.log(
    'The Electron runtime is not installed on this machine (its download is blocked here); starting browser mode instead.',
  );

const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; SIGTERM is passed on.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => undefined);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
