// `npm start`: build when out/ is missing or stale, then open the desktop app when the Electron runtime is
// installed (and there is a display), browser mode (`mooring web`) otherwise. The first line says which
// mode and why (scripts/electronRuntime.mjs decides, the same way bootstrap reports it).
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseStartMode, describeStartMode, electronRuntimeStatus } from './electronRuntime.mjs';
import { buildIfStale } from './buildFreshness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  buildIfStale(root);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const runtime = electronRuntimeStatus(root);
const choice = chooseStartMode({ runtime });
console.log(`Starting ${describeStartMode(choice)}.`);
if (!runtime.present && process.env.MOORING_START_MODE !== 'browser')
  console.log('(For the desktop app, `bash scripts/bootstrap.sh` tries the Electron download again.)');
const [cmd, args] =
  choice.mode === 'electron' && runtime.present
    ? [runtime.path, [root, ...process.argv.slice(2)]]
    : [process.execPath, [join(root, 'bin/mooring.mjs'), 'web', ...process.argv.slice(2)]];

const child = spawn(cmd, args, { cwd: root, stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; SIGTERM is passed on.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => undefined);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
