import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { asciiChunks, NODE_OUTPUT } from './scripts/nodeOutput';

const alias = { '@shared': resolve(__dirname, 'shared') };

// Custom roots (ARCHITECTURE.md): src-main, src-preload, src-renderer.
export default defineConfig({
  // Two entries, one build (docs/cli.md, "How the CLI ships"): the Electron main (out/main/index.js) and
  // the CLI that `bin/mooring.mjs` runs (out/main/cli.js), sharing the core's chunks. Dependencies are
  // bundled in, so a start reads a few files instead of resolving hundreds in node_modules (the CLI's
  // `--help` took ~0.6 s with them external, ~0.25 s bundled). Left outside, loaded from node_modules at run
  // time: electron (the runtime), keytar (a native module, rebuilt per runtime by electron-builder, and
  // optional), gpt-tokenizer (loaded on first use only, src-main/core/tokenCount.ts) and quickjs-emscripten
  // (loaded on first use, src-main/core/sandbox/lazy.ts; its variant reads its .wasm file beside itself).
  main: {
    resolve: { alias },
    plugins: [asciiChunks()],
    build: {
      outDir: 'out/main',
      externalizeDeps: false,
      rollupOptions: {
        external: ['electron', 'keytar', 'gpt-tokenizer', 'quickjs-emscripten'],
        output: { minify: NODE_OUTPUT },
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          cli: resolve(__dirname, 'src-main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        // A sandboxed preload cannot load ES modules: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    resolve: { alias },
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // A production build (docs/decisions/008-renderer-build.md): minified, and split by the screens'
      // first-use loads (src-renderer/src/screens/lazyScreens.ts), so a window reads the shell and the
      // screen it opens on; the rest is read in an idle moment after.
      minify: true,
      // The chat's Markdown chunk (KaTeX, highlight.js and their grammars, micromark) is ~770 kB, loaded
      // with the first screen that renders Markdown, never at start.
      chunkSizeWarningLimit: 1000,
      // Fonts stay files: the pages' font-src 'self' (src-renderer/index.html, core/web/contentSecurity.ts)
      // refuses the data: URL Vite would inline a small one as (KaTeX's), and its glyphs would fall back.
      assetsInlineLimit: (file) => (/\.(woff2?|ttf|otf|eot)$/.test(file) ? false : undefined),
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
