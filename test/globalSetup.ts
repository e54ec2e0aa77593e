// Before any test (vitest and the browser-mode Playwright suite): build out/ when it is missing or older than
// the sources. Integration tests and the e2e harness run the compiled CLI (`bin/mooring.mjs` →
// out/main/cli.js, docs/cli.md "How the CLI ships") and serve the built renderer, so a stale build would
// silently test old code; a failed build stops the run with the build's own errors. Then the TypeScript
// fixtures and test children are bundled (test/fixtures/bundleFixtures.mjs): runTs.mjs starts them from
// the bundle while it is fresh.
import { resolve } from 'node:path';
// @ts-expect-error -- a plain .mjs helper shared with scripts/start.mjs
import { buildIfStale } from '../scripts/buildFreshness.mjs';
// @ts-expect-error -- a plain .mjs helper, also run by hand
import { bundleFixtures } from './fixtures/bundleFixtures.mjs';

export default async function globalSetup(): Promise<void> {
  const root = resolve(import.meta.dirname, '..');
  (buildIfStale as (root: string) => boolean)(root);
  await (bundleFixtures as (root: string) => Promise<number>)(root);
}
