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
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Real child processes on 2 noisy cores: bound the parallelism.
    maxWorkers: 2,
  },
});
