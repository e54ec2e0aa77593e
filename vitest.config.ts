import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@shared': resolve(import.meta.dirname, 'shared') } },
  test: {
    include: [
      'shared/**/*.test.ts',
      'src-main/**/*.test.ts',
      'src-renderer/**/*.test.{ts,tsx}',
      'test/**/*.test.ts',
    ],
    // Builds out/ when stale: the CLI tests run the compiled build.
    globalSetup: ['test/globalSetup.ts'],
    // A deadline catches a hang; it does not judge speed (tests wait for events, timings go to bench/).
    // On a loaded machine a test that runs the CLI a few times takes several times as long as on a quiet one.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // Real child processes on 2 noisy cores: bound the parallelism.
    maxWorkers: 2,
  },
});
