// The preload exposes exactly one bridge, `window.mooring` (ARCHITECTURE.md, "Processes and entry points":
// it "exposes exactly one typed bridge to the renderer, nothing else"). The built preload is run in a V8 context with a recording
// stand-in for `electron`, the way a sandboxed preload runs: only `require('electron')` is available.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import vm from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { IPC_CHANNEL } from '../../shared/ipc';

const root = resolve(import.meta.dirname, '../..');
const BUILT = join(root, 'out/preload/index.cjs');

interface Loaded {
  required: string[];
  /** Every contextBridge call: method and world/key name. */
  bridges: { method: string; name: unknown; api: unknown }[];
  /** Every ipcRenderer call made while loading. */
  ipc: { method: string; args: unknown[] }[];
  sent: unknown[][];
}

/** Runs preload code as Electron's sandboxed preload would, recording what it asks of electron. */
function loadPreload(code: string): Loaded {
  const out: Loaded = { required: [], bridges: [], ipc: [], sent: [] };
  const recorder = (onCall: (method: string, args: unknown[]) => unknown) =>
    new Proxy(
      {},
      {
        get:
          (_t, method) =>
          (...args: unknown[]) =>
            onCall(String(method), args),
      },
    );
  const electron = {
    contextBridge: recorder((method, [name, api]) => void out.bridges.push({ method, name, api })),
    ipcRenderer: recorder((method, args) => {
      if (method === 'send') out.sent.push(args);
      else out.ipc.push({ method, args });
    }),
  };
  const require = (id: string): unknown => {
    out.required.push(id);
    if (id === 'electron') return electron;
    // A sandboxed preload cannot load other modules (Electron docs, "Sandboxed preload scripts").
    throw new Error(`a sandboxed preload cannot require('${id}')`);
  };
  const module = { exports: {} };
  const wrapper = vm.runInNewContext(
    `(function (exports, require, module) {\n${code}\n})`,
    {},
    { filename: 'preload.cjs' },
  );
  wrapper(module.exports, require, module);
  return out;
}

function bridgeProblems(l: Loaded): string[] {
  const problems: string[] = [];
  if (l.bridges.length !== 1) problems.push(`expected one contextBridge call, got ${l.bridges.length}`);
  for (const b of l.bridges) {
    if (b.method !== 'exposeInMainWorld' || b.name !== 'mooring')
      problems.push(`unexpected bridge ${b.method}(${String(b.name)})`);
    const keys = b.api && typeof b.api === 'object' ? Object.keys(b.api).sort() : [];
    if (keys.join(',') !== 'onMessage,send')
      problems.push(`the bridge must carry send and onMessage only, has ${keys.join(', ')}`);
  }
  const channels = l.ipc.filter((c) => c.method !== 'on' || c.args[0] !== IPC_CHANNEL);
  if (channels.length > 0)
    problems.push(`unexpected ipcRenderer use: ${channels.map((c) => c.method).join(', ')}`);
  if (l.required.some((id) => id !== 'electron')) problems.push(`requires ${l.required.join(', ')}`);
  return problems;
}

/** The preload source bundled the way electron-vite does (CommonJS, electron external). */
async function bundledSource(): Promise<string> {
  const result = await build({
    entryPoints: [join(root, 'src-preload/index.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    external: ['electron'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('the preload bridge', () => {
  it('the source, bundled, exposes only window.mooring with send/onMessage on the one channel', async () => {
    const loaded = loadPreload(await bundledSource());
    expect(bridgeProblems(loaded)).toEqual([]);
    const api = loaded.bridges[0]!.api as {
      send: (m: unknown) => void;
      onMessage: (l: (m: unknown) => void) => () => void;
    };

    // send goes out on IPC_CHANNEL only, whatever the page passes.
    api.send({ kind: 'stop', id: 1 });
    expect(loaded.sent).toEqual([[IPC_CHANNEL, { kind: 'stop', id: 1 }]]);

    // Incoming messages reach listeners without Electron's event object (it holds the sender).
    const on = loaded.ipc.find((c) => c.method === 'on')!;
    const deliver = on.args[1] as (event: unknown, message: unknown) => void;
    const got: unknown[][] = [];
    const off = api.onMessage((...args) => got.push(args));
    deliver({ sender: 'ipcRenderer' }, { kind: 'data', id: 1 });
    off();
    deliver({ sender: 'ipcRenderer' }, { kind: 'data', id: 2 });
    expect(got).toEqual([[{ kind: 'data', id: 1 }]]);
  });

  // CI builds before the tests (scripts/test.sh); a bare `vitest run` without a build skips this one.
  it.skipIf(!existsSync(BUILT))(
    'the built preload (out/preload/index.cjs, what ships) exposes only window.mooring',
    () => {
      const code = readFileSync(BUILT, 'utf8');
      expect(bridgeProblems(loadPreload(code))).toEqual([]);
    },
  );

  it.each([
    [
      'a second bridge',
      'require("electron").contextBridge.exposeInMainWorld("ipc", require("electron").ipcRenderer);',
      /one contextBridge call/,
    ],
    [
      'an isolated-world bridge',
      'require("electron").contextBridge.exposeInIsolatedWorld(1, "x", {});',
      /unexpected bridge/,
    ],
    ['a raw channel', 'require("electron").ipcRenderer.on("other", () => {});', /unexpected ipcRenderer use/],
    ['a Node module', 'require("fs");', /cannot require|requires/],
  ])('the check fails on %s', async (_what, extra, problem) => {
    const code = (await bundledSource()) + '\n' + extra;
    let problems: string[];
    try {
      problems = bridgeProblems(loadPreload(code));
    } catch (err) {
      problems = [(err as Error).message];
    }
    expect(problems.join('\n')).toMatch(problem);
  });

  it('the check fails when the bridge carries more than send/onMessage', async () => {
    const code = (await bundledSource()).replace(
      'onMessage:',
      'invoke: (c, m) => require("electron").ipcRenderer.invoke(c, m),\n  onMessage:',
    );
    expect(bridgeProblems(loadPreload(code)).join('\n')).toMatch(/send and onMessage only/);
  });
});
