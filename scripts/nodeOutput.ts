// How the Node side's bundles are written (docs/decisions/008-renderer-build.md): shared by
// electron.vite.config.ts and the bench's compiled contenders (bench/lib/compiled.ts), which are built alike.
import type { Plugin } from 'vite';

/**
 * The main process's and the CLI's code as V8 holds it (docs/decisions/008-renderer-build.md): the source of
 * every loaded module stays in the heap as a string, two bytes a character as soon as one character is not
 * Latin-1 (a '…' in a message), so the output is ASCII only (escapes for the rest), which halves it (~4 MB
 * in `mooring serve`). Otherwise as written: no compression, no mangling, comments and lines kept (stack
 * traces stay readable, and the region comments name each bundled package, test/integration/lazyLoading.test.ts).
 */
export const NODE_OUTPUT = {
  compress: false,
  mangle: false,
  codegen: { removeWhitespace: false, asciiOnly: true },
} as const;

/**
 * What codegen's asciiOnly leaves (tagged templates' text, whose raw form is observable): escaped too, so
 * every chunk is one-byte. Ours are `tty` lines (cooked text: the same characters) and a comment inside the
 * process watchdog's String.raw script (mcp/watchdogScript.ts), where an escape is as good.
 */
export function asciiChunks(): Plugin {
  return {
    name: 'mooring-ascii-chunks',
    renderChunk: (code) =>
      /[\u0080-\uffff]/.test(code)
        ? {
            code: code.replace(
              /[\u0080-\uffff]/g,
              (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
            ),
            map: null,
          }
        : null,
  };
}
