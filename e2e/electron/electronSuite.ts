// Whether the Electron end-to-end suite can run here, and if not, why, in one line. It runs wherever the
// Electron runtime is installed (bootstrap tries its download) and there is a display (npm test provides
// one with xvfb-run on a headless Linux machine); otherwise every test is skipped with this reason.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error -- a plain .mjs script, shared with bootstrap.sh and npm start
import * as runtimeModule from '../../scripts/electronRuntime.mjs';

type Runtime = { present: true; path: string; version: string } | { present: false; reason: string };
const { electronRuntimeStatus } = runtimeModule as {
  electronRuntimeStatus(root: string, env?: NodeJS.ProcessEnv): Runtime;
};

export interface SuiteFacts {
  root: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

export type SuitePlan = { run: true; executablePath: string } | { run: false; reason: string };

export function electronSuitePlan({ root, env, platform }: SuiteFacts): SuitePlan {
  const skip = (why: string): SuitePlan => ({
    run: false,
    reason: `Electron end-to-end suite skipped: ${why}`,
  });
  const runtime = electronRuntimeStatus(root, env);
  if (!runtime.present) return skip(`${runtime.reason} (bash scripts/bootstrap.sh tries its download)`);
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return skip('no display (DISPLAY and WAYLAND_DISPLAY are unset; npm test runs it under xvfb-run -a)');
  if (!existsSync(join(root, 'out/main/index.js'))) return skip('the app is not built (npm run build)');
  return { run: true, executablePath: runtime.path };
}
