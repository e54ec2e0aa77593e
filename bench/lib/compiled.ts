// The bench's own child scripts, compiled the way the product is (ARCHITECTURE.md, "How the CLI ships"):
// one Vite build with every dependency bundled in, run by plain `node`. So a raw-SDK child and a Mooring
// child start the same way, neither through tsx, and the product's side is the real `bin/mooring.mjs`
// built by `npm run build` (checked fresh first, like the tests do).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'vite';
// @ts-expect-error -- a plain .mjs helper shared with scripts/start.mjs
import { buildIfStale, outputsAreStale } from '../../scripts/buildFreshness.mjs';
import { asciiChunks, NODE_OUTPUT } from '../../scripts/nodeOutput';
import { ROOT } from './paths';

/** Entry name → source, under bench/. */
const ENTRIES = {
  memoryChild: 'bench/memoryChild.ts',
  rawCall: 'bench/raw/rawCall.ts',
  rawRelay: 'bench/raw/rawRelay.ts',
} as const;
export type CompiledScript = keyof typeof ENTRIES;

const OUT = join(ROOT, 'bench/results/compiled');
let compiling: Promise<void> | undefined;

/** Builds the product (when stale) and the bench's scripts (once per run); returns the script's path. */
export async function compiledScript(name: CompiledScript): Promise<string> {
  compiling ??= compileAll();
  await compiling;
  return join(OUT, `${name}.mjs`);
}

/** The compiled CLI as users run it: `node bin/mooring.mjs …`. */
export async function mooringBin(): Promise<string> {
  compiling ??= compileAll();
  await compiling;
  return join(ROOT, 'bin/mooring.mjs');
}

/**
 * What electron-vite adds to the product's ESM chunks ("CommonJS Shims"): bundled CommonJS libraries
 * (write-file-atomic names its temp files from __filename) expect __filename, __dirname and require.
 */
function commonJsShims(): Plugin {
  return {
    name: 'bench-commonjs-shims',
    renderChunk(code) {
      const lines: string[] = [];
      if (/\b__filename\b/.test(code) && !/\b(const|let|var) __filename\b/.test(code))
        lines.push('const __filename = import.meta.filename;');
      if (/\b__dirname\b/.test(code) && !/\b(const|let|var) __dirname\b/.test(code))
        lines.push('const __dirname = import.meta.dirname;');
      return lines.length ? { code: `${lines.join('\n')}\n${code}`, map: null } : null;
    },
  };
}

const isStale = outputsAreStale as (root: string, o: { outputs: string[]; sources: string[] }) => boolean;

async function compileAll(): Promise<void> {
  (buildIfStale as (root: string) => boolean)(ROOT);
  // Rebuilt only when a source changed since the last run (what they bundle: bench's own, the core, shared/).
  const outputs = Object.keys(ENTRIES).map((name) => `bench/results/compiled/${name}.mjs`);
  const sources = [
    'bench/lib',
    'bench/raw',
    'bench/memoryChild.ts',
    'src-main',
    'shared',
    'package.json',
    'scripts/nodeOutput.ts',
  ];
  if (!isStale(ROOT, { outputs, sources })) return;
  await build({
    configFile: false,
    root: ROOT,
    logLevel: 'warn',
    resolve: { alias: { '@shared': join(ROOT, 'shared') } },
    ssr: { noExternal: true, target: 'node' },
    // The product's output form (ASCII only, scripts/nodeOutput.ts), for both sides alike.
    plugins: [commonJsShims(), asciiChunks()],
    build: {
      ssr: true,
      outDir: OUT,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: {
        input: Object.fromEntries(Object.entries(ENTRIES).map(([k, v]) => [k, join(ROOT, v)])),
        // As in electron.vite.config.ts: native, optional, or loaded on first use.
        external: ['electron', 'keytar', 'gpt-tokenizer'],
        output: {
          format: 'es',
          entryFileNames: '[name].mjs',
          chunkFileNames: 'chunks/[name]-[hash].mjs',
          minify: NODE_OUTPUT,
        },
      },
    },
  });
  for (const name of Object.keys(ENTRIES))
    if (!existsSync(join(OUT, `${name}.mjs`))) throw new Error(`the bench build made no ${name}.mjs`);
}
