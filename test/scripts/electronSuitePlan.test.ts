// The Electron end-to-end suite's skip logic (e2e/electron/electronSuite.ts): it runs only with the runtime
// installed, a display and a built app, and otherwise names the one reason it is skipped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { electronSuitePlan } from '../../e2e/electron/electronSuite';
import { layElectronPackage, layElectronRuntime } from '../helpers/electronStub';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(o: { runtime: boolean; built: boolean }): string {
  const root = mkdtempSync(join(tmpdir(), 'mooring-suiteplan-'));
  dirs.push(root);
  layElectronPackage(root);
  if (o.runtime) layElectronRuntime(root);
  if (o.built) {
    mkdirSync(join(root, 'out/main'), { recursive: true });
    writeFileSync(join(root, 'out/main/index.js'), '');
  }
  return root;
}

describe('electronSuitePlan', () => {
  it('runs on the installed runtime when there is a display and a built app', () => {
    const root = project({ runtime: true, built: true });
    expect(electronSuitePlan({ root, env: { DISPLAY: ':99' }, platform: 'linux' })).toEqual({
      run: true,
      executablePath: join(root, 'node_modules/electron/dist/electron'),
    });
    // macOS and Windows always have a display.
    expect(electronSuitePlan({ root, env: {}, platform: 'darwin' }).run).toBe(true);
  });

  it('skips without the runtime, with the reason and what to do, in one line', () => {
    const plan = electronSuitePlan({
      root: project({ runtime: false, built: true }),
      env: { DISPLAY: ':0' },
      platform: 'linux',
    });
    expect(plan).toEqual({
      run: false,
      reason:
        'Electron end-to-end suite skipped: the Electron runtime is not installed (bash scripts/bootstrap.sh tries its download)',
    });
  });

  it('skips on a headless Linux machine without a display, naming xvfb-run', () => {
    const plan = electronSuitePlan({
      root: project({ runtime: true, built: true }),
      env: {},
      platform: 'linux',
    });
    expect(plan).toMatchObject({ run: false, reason: expect.stringMatching(/no display .*xvfb-run -a/) });
    expect(
      electronSuitePlan({
        root: project({ runtime: true, built: true }),
        env: { WAYLAND_DISPLAY: 'w' },
        platform: 'linux',
      }).run,
    ).toBe(true);
  });

  it('skips when the app is not built', () => {
    const plan = electronSuitePlan({
      root: project({ runtime: true, built: false }),
      env: { DISPLAY: ':0' },
      platform: 'linux',
    });
    expect(plan).toMatchObject({ run: false, reason: expect.stringMatching(/not built \(npm run build\)/) });
  });
});
