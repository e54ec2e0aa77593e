// Is the Electron runtime here, and which mode will `npm start` use? Shared by scripts/bootstrap.sh (which
// tries Electron's normal binary install once, bounded in time) and scripts/start.mjs (which launches the
// desktop app when it can, browser mode otherwise). Each answer carries its reason in one line.
//
// Usage: node scripts/electronRuntime.mjs bootstrap   (prints "bootstrap: npm start will …", exits 0)
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How long bootstrap lets Electron's own install try (a normal download is ~100 MB); seconds, 0 = skip. */
export const DEFAULT_DOWNLOAD_TIMEOUT_S = 90;

const read = (p) => {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/**
 * The runtime as the `electron` package itself finds it (node_modules/electron/index.js): path.txt names
 * the executable under dist/ (or under ELECTRON_OVERRIDE_DIST_PATH), and dist/version must match the
 * package's version (its install.js checks the same before skipping a download).
 * @returns {{ present: true, path: string, version: string } | { present: false, reason: string }}
 */
export function electronRuntimeStatus(root, env = process.env) {
  const pkgDir = join(root, 'node_modules', 'electron');
  const pkg = read(join(pkgDir, 'package.json'));
  if (!pkg) return { present: false, reason: 'the electron package is not installed (run npm ci)' };
  const version = JSON.parse(pkg).version;
  const exe = read(join(pkgDir, 'path.txt'));
  // "not installed", not "never downloaded": bootstrap may have tried, and failed (it said why then).
  if (!exe) return { present: false, reason: 'the Electron runtime is not installed' };
  const dist = env.ELECTRON_OVERRIDE_DIST_PATH || join(pkgDir, 'dist');
  const installed = read(join(dist, 'version'))?.replace(/^v/, '');
  if (!env.ELECTRON_OVERRIDE_DIST_PATH && installed !== version) {
    return {
      present: false,
      reason: `the downloaded runtime is ${installed ? `version ${installed}` : 'incomplete'}, the package wants ${version}`,
    };
  }
  const path = join(dist, exe);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return { present: false, reason: `${relative(root, path)} is missing or not executable` };
  }
  return { present: true, path, version };
}

/**
 * Which mode `npm start` uses, and why.
 * @returns {{ mode: 'electron' | 'browser', reason: string }}
 */
export function chooseStartMode({ runtime, platform = process.platform, env = process.env }) {
  if (env.MOORING_START_MODE === 'browser')
    return { mode: 'browser', reason: 'MOORING_START_MODE=browser asks for it' };
  if (!runtime.present) return { mode: 'browser', reason: runtime.reason };
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return {
      mode: 'browser',
      reason: `Electron ${runtime.version} is installed, but there is no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)`,
    };
  }
  return { mode: 'electron', reason: `Electron ${runtime.version} is installed` };
}

/** The one line both scripts print. */
export function describeStartMode(choice) {
  return choice.mode === 'electron'
    ? `the desktop app (${choice.reason})`
    : `browser mode, because ${choice.reason}`;
}

/** The first line of a failed install's output worth showing (its error, not the stack frames). */
function firstError(output) {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => /\b(E[A-Z]{3,}|Error|failed)\b/.test(l) && !l.startsWith('at ')) ?? lines[0];
  return (line ?? 'no output').slice(0, 160);
}

/**
 * Runs the electron package's own install step (node_modules/electron/install.js: download, checksum,
 * extract), killed after `timeoutS` seconds. Never throws: a failed download is an answer, not an error.
 * @returns {Promise<{ ok: true } | { ok: false, reason: string }>}
 */
export function installElectronRuntime({ root, timeoutS = DEFAULT_DOWNLOAD_TIMEOUT_S, env = process.env }) {
  const script = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(script)) return Promise.resolve({ ok: false, reason: `${script} is missing` });
  const childEnv = { ...env };
  delete childEnv.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      cwd: join(root, 'node_modules', 'electron'),
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (d) => {
      if (output.length < 64_000) output += d.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutS * 1000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `its install step could not start (${err.message})` });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (timedOut) resolve({ ok: false, reason: `its download gave no answer within ${timeoutS} s` });
      else if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, reason: `its download failed (${firstError(output)})` });
    });
  });
}

/**
 * Bootstrap's step: use the runtime if it is there, else try the normal install once (unless the user set
 * ELECTRON_SKIP_BINARY_DOWNLOAD), then say in one line which mode `npm start` will use and why.
 */
export async function bootstrapElectron({ root, env = process.env, platform = process.platform }) {
  let runtime = electronRuntimeStatus(root, env);
  const timeoutS = Number(env.MOORING_ELECTRON_DOWNLOAD_TIMEOUT ?? DEFAULT_DOWNLOAD_TIMEOUT_S);
  if (!runtime.present) {
    let why;
    if (env.ELECTRON_SKIP_BINARY_DOWNLOAD)
      why = 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it was not downloaded';
    else if (!(timeoutS > 0)) why = 'MOORING_ELECTRON_DOWNLOAD_TIMEOUT=0 skips its download';
    else {
      const attempt = await installElectronRuntime({ root, timeoutS, env });
      runtime = electronRuntimeStatus(root, env);
      if (!attempt.ok) why = attempt.reason;
      else if (!runtime.present) why = `its install step finished, yet ${runtime.reason}`;
    }
    if (why) runtime = { present: false, reason: `the Electron runtime is not installed: ${why}` };
  }
  return chooseStartMode({ runtime, platform, env });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  if (process.argv[2] !== 'bootstrap') {
    console.error('usage: node scripts/electronRuntime.mjs bootstrap');
    process.exit(2);
  }
  const choice = await bootstrapElectron({ root });
  const retry = choice.mode === 'browser' && /not installed/.test(choice.reason);
  console.log(
    `bootstrap: npm start will open ${describeStartMode(choice)}${retry ? '; running this script again tries again' : ''}`,
  );
}
