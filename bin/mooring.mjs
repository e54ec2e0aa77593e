#!/usr/bin/env node
// The `mooring` command: runs the compiled CLI, out/main/cli.js, which `npm run build` makes together with
// the Electron bundles (docs/cli.md, "How the CLI ships"). No TypeScript is compiled at start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = new URL('../out/main/cli.js', import.meta.url);

if (!existsSync(cli)) {
  process.stderr.write(
    `mooring: the CLI is not built (${fileURLToPath(cli)} is missing).\n` +
      `Build it with \`npm run build\` in ${root}, or run \`npm run cli -- ARGS\`, which builds first.\n`,
  );
  process.exit(1);
}

// In a source checkout (npm link), say so when the sources changed since the build: the old code runs.
if (existsSync(new URL('../src-main', import.meta.url))) {
  const { buildIsStale } = await import('../scripts/buildFreshness.mjs');
  if (buildIsStale(root))
    process.stderr.write(
      'mooring: warning: out/ is older than the sources, so this runs the last build; `npm run build` updates it.\n',
    );
}

await import(cli.href);
