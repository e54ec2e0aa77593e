// The desktop app end to end, with Playwright's Electron driver on the built app (e2e/electron/). Where the
// Electron runtime or a display is missing, the suite is skipped and globalSetup says why in one line.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './electron',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/e2e-electron',
  globalSetup: './electron/globalSetup.ts',
  // One app, one core: real child processes on two noisy cores.
  workers: 1,
  fullyParallel: false,
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // The dot reporter: a skipped run is the reason line and one summary line.
  reporter: [['dot']],
  use: { trace: 'retain-on-failure' },
});
