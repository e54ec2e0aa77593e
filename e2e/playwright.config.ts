// End-to-end tests of the renderer in Debian's Chromium against browser mode (ARCHITECTURE.md, "Processes
// and entry points"). Playwright's own browser download is blocked, so /usr/bin/chromium with these flags.
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // The desktop app's own suite has its config (e2e/electron.config.ts).
  testIgnore: 'electron/**',
  outputDir: '../test-results/e2e',
  // Builds out/ when stale: the harness runs the compiled CLI and serves the built renderer.
  globalSetup: '../test/globalSetup.ts',
  // Two spec files at a time (each has its own home, `mooring web` on a free port, and page): the suite
  // waits on real servers and processes more than it computes (about 16 CPU-minutes in 20 wall-minutes on
  // two workers), so a second worker shortens it. MOORING_E2E_WORKERS=1 runs one at a time.
  workers: Number(process.env.MOORING_E2E_WORKERS ?? 2),
  fullyParallel: false,
  timeout: 180_000,
  // A deadline, not a speed judgement: a real server's start (a process, its handshake) can take over 20 s
  // beside a busy core, and an expectation only waits this long when it is failing.
  expect: { timeout: 60_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
});
