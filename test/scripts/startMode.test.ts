// `bash scripts/bootstrap.sh` and `npm start` say which mode the app starts in and why (README, "Start").
// Real scripts run as child processes on a stub project: node_modules/electron laid out the way the electron
// package leaves it after a download (path.txt, dist/version, an executable), or without the runtime; the
// stub "electron" and the stub `mooring web` print what they were started with.
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { layElectronPackage, layElectronRuntime, STUB_ELECTRON_VERSION } from '../helpers/electronStub';
// @ts-expect-error -- a plain .mjs script, shared with bootstrap.sh and start.mjs
import * as runtimeModule from '../../scripts/electronRuntime.mjs';

type Runtime = { present: true; path: string; version: string } | { present: false; reason: string };
type Choice = { mode: 'electron' | 'browser'; reason: string };
const { chooseStartMode, electronRuntimeStatus } = runtimeModule as {
  chooseStartMode(o: { runtime: Runtime; platform?: string; env?: NodeJS.ProcessEnv }): Choice;
  electronRuntimeStatus(root: string, env?: NodeJS.ProcessEnv): Runtime;
};

const ROOT = resolve(import.meta.dirname, '../..');
const VERSION = STUB_ELECTRON_VERSION;
const run = promisify(execFile);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project with the real scripts, a fresh out/ (so start does not build) and the electron package. */
function stubProject(opts: { runtime: boolean; installJs?: string }): string {
  const root = mkdtempSync(join(tmpdir(), 'mooring-start-'));
  dirs.push(root);
  for (const f of ['start.mjs', 'electronRuntime.mjs', 'buildFreshness.mjs'])
    cpSync(join(ROOT, 'scripts', f), join(root, 'scripts', f));
  const old = new Date(Date.now() - 60_000);
  writeFileSync(join(root, 'electron.vite.config.ts'), '');
  utimesSync(join(root, 'electron.vite.config.ts'), old, old);
  for (const f of [
    'out/main/index.js',
    'out/main/cli.js',
    'out/preload/index.cjs',
    'out/renderer/index.html',
  ]) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  mkdirSync(join(root, 'bin'));
  writeFileSync(
    join(root, 'bin/mooring.mjs'),
    "console.log('stub mooring ' + process.argv.slice(2).join(' '));\n",
  );
  layElectronPackage(root, opts.installJs !== undefined ? { installJs: opts.installJs } : {});
  if (opts.runtime) layElectronRuntime(root);
  return root;
}

const display = { PATH: process.env.PATH ?? '', HOME: tmpdir(), DISPLAY: ':99' };

describe('npm start (scripts/start.mjs)', () => {
  it('with the runtime present it opens the desktop app, says so, and passes its arguments on', async () => {
    const root = stubProject({ runtime: true });
    const { stdout } = await run(process.execPath, [join(root, 'scripts/start.mjs'), '--flag'], {
      env: display,
    });
    const [first, second] = stdout.trim().split('\n');
    expect(first).toBe(`Starting the desktop app (Electron ${VERSION} is installed).`);
    expect(second).toBe(`stub electron ${root} --flag`);
  });

  it('without the runtime it starts browser mode and says why', async () => {
    const root = stubProject({ runtime: false });
    const { stdout } = await run(process.execPath, [join(root, 'scripts/start.mjs'), '--no-open'], {
      env: display,
    });
    const [first, second, third] = stdout.trim().split('\n');
    expect(first).toBe('Starting browser mode, because the Electron runtime is not installed.');
    expect(second).toBe(
      '(For the desktop app, `bash scripts/bootstrap.sh` tries the Electron download again.)',
    );
    expect(third).toBe('stub mooring web --no-open');
  });

  it.skipIf(process.platform !== 'linux')(
    'with the runtime but no display (a headless Linux box) it starts browser mode and says why',
    async () => {
      const root = stubProject({ runtime: true });
      const { stdout } = await run(process.execPath, [join(root, 'scripts/start.mjs')], {
        env: { PATH: display.PATH, HOME: display.HOME },
      });
      expect(stdout).toMatch(
        /^Starting browser mode, because Electron 41\.10\.0 is installed, but there is no display/,
      );
      expect(stdout).toContain('stub mooring web');
    },
  );
});

describe('bootstrap (node scripts/electronRuntime.mjs bootstrap)', () => {
  const bootstrap = async (root: string, env: NodeJS.ProcessEnv = {}) =>
    (
      await run(process.execPath, [join(root, 'scripts/electronRuntime.mjs'), 'bootstrap'], {
        env: { ...display, ...env },
      })
    ).stdout.trim();
  const marks = (root: string) => join(root, 'install-ran');

  it('a failed download (what these machines see) is not an error: browser mode, with the reason', async () => {
    const root = stubProject({
      runtime: false,
      installJs: `require('fs').writeFileSync('../../install-ran', '');
        console.error('TypeError: fetch failed\\n    at node:internal/deps/undici');
        process.exit(1);`,
    });
    expect(await bootstrap(root)).toBe(
      'bootstrap: npm start will open browser mode, because the Electron runtime is not installed: its download failed (TypeError: fetch failed); running this script again tries again',
    );
    expect(existsSync(marks(root))).toBe(true);
  });

  it('a download that succeeds: the desktop app', async () => {
    const root = stubProject({ runtime: false, installJs: '' });
    // The stub install step lays out the runtime, as electron's install.js does after its download.
    writeFileSync(
      join(root, 'node_modules/electron/install.js'),
      `const fs = require('fs'); fs.mkdirSync('dist'); fs.writeFileSync('path.txt', 'electron');
       fs.writeFileSync('dist/version', 'v${VERSION}'); fs.writeFileSync('dist/electron', ''); fs.chmodSync('dist/electron', 0o755);`,
    );
    expect(await bootstrap(root)).toBe(
      `bootstrap: npm start will open the desktop app (Electron ${VERSION} is installed)`,
    );
  });

  it('a download that hangs is cut off at the bound and the child is gone', async () => {
    const root = stubProject({
      runtime: false,
      installJs: `require('fs').writeFileSync('../../install-pid', String(process.pid)); setInterval(() => {}, 1000);`,
    });
    const line = await bootstrap(root, { MOORING_ELECTRON_DOWNLOAD_TIMEOUT: '1' });
    expect(line).toMatch(
      /browser mode, because the Electron runtime is not installed: its download gave no answer within 1 s/,
    );
    const pid = Number(readFileSync(join(root, 'install-pid'), 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('the runtime already there: no download attempt', async () => {
    const root = stubProject({
      runtime: true,
      installJs: `require('fs').writeFileSync('../../install-ran', '');`,
    });
    expect(await bootstrap(root)).toBe(
      `bootstrap: npm start will open the desktop app (Electron ${VERSION} is installed)`,
    );
    expect(existsSync(marks(root))).toBe(false);
  });

  it('ELECTRON_SKIP_BINARY_DOWNLOAD set by the user: no attempt, and the line says why', async () => {
    const root = stubProject({
      runtime: false,
      installJs: `require('fs').writeFileSync('../../install-ran', '');`,
    });
    expect(await bootstrap(root, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' })).toMatch(
      /browser mode, because the Electron runtime is not installed: ELECTRON_SKIP_BINARY_DOWNLOAD is set/,
    );
    expect(existsSync(marks(root))).toBe(false);
  });

  it('bootstrap.sh runs this step after npm ci, and npm ci itself never downloads the runtime', () => {
    const sh = readFileSync(join(ROOT, 'scripts/bootstrap.sh'), 'utf8');
    expect(sh).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci/);
    expect(sh.indexOf('node scripts/electronRuntime.mjs bootstrap')).toBeGreaterThan(sh.indexOf('npm ci'));
  });
});

describe('electronRuntimeStatus and chooseStartMode', () => {
  it('a runtime of another version does not count, and says which', () => {
    const root = stubProject({ runtime: false });
    layElectronRuntime(root, '40.0.0');
    expect(electronRuntimeStatus(root, {})).toEqual({
      present: false,
      reason: `the downloaded runtime is version 40.0.0, the package wants ${VERSION}`,
    });
  });

  it('a path.txt whose executable is gone does not count', () => {
    const root = stubProject({ runtime: true });
    rmSync(join(root, 'node_modules/electron/dist/electron'));
    expect(electronRuntimeStatus(root, {})).toMatchObject({
      present: false,
      reason: expect.stringMatching(/dist\/electron is missing/),
    });
  });

  it('MOORING_START_MODE=browser wins over a present runtime; a display on macOS is never asked for', () => {
    const runtime: Runtime = { present: true, path: '/x/electron', version: VERSION };
    expect(
      chooseStartMode({ runtime, platform: 'linux', env: { MOORING_START_MODE: 'browser', DISPLAY: ':0' } })
        .mode,
    ).toBe('browser');
    expect(chooseStartMode({ runtime, platform: 'darwin', env: {} }).mode).toBe('electron');
    expect(chooseStartMode({ runtime, platform: 'linux', env: { WAYLAND_DISPLAY: 'wayland-0' } }).mode).toBe(
      'electron',
    );
  });
});
