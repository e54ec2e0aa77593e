// What sandbox/ loads on first use, and the only file of the room that may (docs/decisions/003-lazy-rooms.md):
// the QuickJS engine (WebAssembly, docs/decisions/009-code-mode-sandbox.md) is read only when a program runs.
// It stays outside the bundle (electron.vite.config.ts): its variant finds its .wasm file beside itself.
export const loadQuickJS = () => import('quickjs-emscripten');
