// `npm run cli -- ARGS`: the compiled CLI, rebuilt first when a source is newer than out/ (like `npm start`),
// so a change is never tested against the last build. The build's output goes to stderr.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './buildFreshness.mjs';

try {
  buildIfStale(join(dirname(fileURLToPath(import.meta.url)), '..'));
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
await import('../bin/mooring.mjs');
