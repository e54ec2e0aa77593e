// Before any test (vitest and the browser-mode Playwright suite): build out/ when it is missing or older than
// the sources. Integration tests and the e2e harness run the compiled CLI (`bin/mooring.mjs` →
// out/main/cli.js, docs/cli.md "How the CLI ships") and serve the built renderer, so a stale build would
// silently test old code; a failed build stops the run with the build's own errors.
import { resolve } from 'node:path';
// @ts-expect-error -- a plain .mjs helper shared with scripts/start.mjs
import { buildIfStale } from '../scripts/buildFreshness.mjs';

export default function globalSetup(): void {
  (buildIfStale as (root: string) => boolean)(resolve(import.meta.dirname, '..'));
}
