// The layering rules are tried, not trusted (ARCHITECTURE.md, "Rooms and what they may import"): a
// scratch copy of the sources gets one deliberate violation per file, then the real ESLint,
// dependency-cruiser and per-layer tsc run on it, and every violation must be reported by each check
// named for it. Removing a rule (or loosening a layer's tsconfig) makes this test fail.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/servers';

type Layer = 'shared' | 'node' | 'renderer';

interface Violation {
  what: string;
  file: string;
  code: string;
  /** Added to an existing file instead of written as a new one. */
  append?: boolean;
  eslint?: string[];
  depcruise?: string[];
  tsc?: Layer;
}

const V: Violation[] = [
  {
    what: 'shared/ imports node:fs',
    file: 'shared/v01NodeFs.ts',
    code: "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['shared-and-renderer-have-no-node'],
    tsc: 'shared',
  },
  {
    what: 'shared/ imports a bare fs',
    file: 'shared/v02BareFs.ts',
    code: "import { readFileSync } from 'fs';\nexport const read = readFileSync;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['shared-and-renderer-have-no-node'],
    tsc: 'shared',
  },
  {
    what: 'shared/ imports a bare crypto',
    file: 'shared/v03BareCrypto.ts',
    code: "import { randomUUID } from 'crypto';\nexport const id = randomUUID;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['shared-and-renderer-have-no-node'],
    tsc: 'shared',
  },
  {
    what: 'shared/ uses Buffer',
    file: 'shared/v04Buffer.ts',
    code: "export const bytes = Buffer.from('x');\n",
    eslint: ['no-restricted-globals'],
    tsc: 'shared',
  },
  {
    what: 'shared/ uses process',
    file: 'shared/v05Process.ts',
    code: 'export const home = process.env.HOME;\n',
    eslint: ['no-restricted-globals'],
    tsc: 'shared',
  },
  {
    what: 'shared/ imports the core',
    file: 'shared/v06ImportsCore.ts',
    code: "import { MooringError } from '../src-main/core/errors';\nexport const E = MooringError;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['shared-imports-no-src'],
  },
  {
    what: 'shared/ uses the DOM',
    file: 'shared/v07Dom.ts',
    code: 'export const title = () => document.title;\n',
    tsc: 'shared',
  },
  {
    what: 'the renderer imports node:path',
    file: 'src-renderer/src/v08NodePath.ts',
    code: "import { join } from 'node:path';\nexport const j = join;\n",
    eslint: ['@typescript-eslint/no-restricted-imports'],
    depcruise: ['shared-and-renderer-have-no-node'],
  },
  {
    what: 'the renderer imports a bare crypto',
    file: 'src-renderer/src/v09BareCrypto.ts',
    code: "import { createHash } from 'crypto';\nexport const h = createHash;\n",
    eslint: ['@typescript-eslint/no-restricted-imports'],
    depcruise: ['shared-and-renderer-have-no-node'],
  },
  {
    what: 'the renderer uses process',
    file: 'src-renderer/src/v10Process.ts',
    code: 'export const mode = process.env.NODE_ENV;\n',
    eslint: ['no-restricted-globals'],
  },
  {
    what: 'the renderer uses require',
    file: 'src-renderer/src/v11Require.ts',
    code: "export const zod = require('zod');\n",
    eslint: ['no-restricted-globals', '@typescript-eslint/no-require-imports'],
  },
  {
    what: 'the renderer uses __dirname',
    file: 'src-renderer/src/v12Dirname.ts',
    code: 'export const here = __dirname;\n',
    eslint: ['no-restricted-globals'],
  },
  {
    what: 'the renderer imports core code',
    file: 'src-renderer/src/v13CoreValue.ts',
    code: "import { MooringError } from '../../src-main/core/errors';\nexport const E = MooringError;\n",
    eslint: ['@typescript-eslint/no-restricted-imports'],
    depcruise: ['renderer-sees-only-the-router-type'],
  },
  {
    what: 'the renderer loads a module with import()',
    file: 'src-renderer/src/v14DynamicImport.ts',
    code: "export const later = () => import('./App');\n",
    eslint: ['no-restricted-syntax'],
    depcruise: ['no-dynamic-import-in-product-code'],
  },
  {
    what: 'the core imports the renderer',
    file: 'src-main/core/mcp/v15ImportsRenderer.ts',
    code: "import { errorOf } from '../../../src-renderer/src/api/errors';\nexport const e = errorOf;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['nothing-imports-the-renderer'],
  },
  {
    what: 'the core imports electron',
    file: 'src-main/core/catalog/v16Electron.ts',
    code: "import { app } from 'electron';\nexport const a = app;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['electron-only-in-the-shell'],
  },
  {
    what: 'the core imports its CLI host',
    file: 'src-main/core/safety/v17ImportsCli.ts',
    code: "import { EXIT } from '../../cli/output';\nexport const codes = EXIT;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['core-imports-no-host'],
  },
  {
    what: 'a room other than the request handler imports the SDK client',
    file: 'src-main/core/tasks/v18bImportsSdkClient.ts',
    code: "import type { Client } from '@modelcontextprotocol/client';\nexport type C = Client;\n",
    eslint: ['no-restricted-imports'],
  },
  {
    what: 'mcp imports agent',
    file: 'src-main/core/mcp/v18ImportsAgent.ts',
    code: "import { runToolLoop } from '../agent/toolLoop';\nexport const loop = runToolLoop;\n",
    depcruise: ['room-mcp'],
  },
  {
    what: 'config imports mcp',
    file: 'src-main/core/config/v19ImportsMcp.ts',
    code: "import type { SessionPool } from '../mcp/sessionPool';\nexport type Pool = SessionPool;\n",
    depcruise: ['room-config'],
  },
  {
    what: 'the core uses the DOM',
    file: 'src-main/core/workspace/v20Dom.ts',
    code: 'export const here = () => window.location.href;\n',
    tsc: 'node',
  },
  // One more for each remaining rule, so that none can be removed unnoticed.
  {
    what: 'a room imports the composition root',
    file: 'src-main/core/calls/v21ImportsRoot.ts',
    code: "import type { MooringCore } from '../mooringCore';\nexport type Core = MooringCore;\n",
    depcruise: ['rooms-do-not-import-the-root-or-the-doors'],
  },
  {
    what: 'the preload imports the core',
    file: 'src-preload/v22ImportsCore.ts',
    code: "import { MooringError } from '../src-main/core/errors';\nexport const E = MooringError;\n",
    eslint: ['no-restricted-imports'],
    depcruise: ['preload-imports-shared-only'],
  },
  {
    what: 'the core loads a module with import()',
    file: 'src-main/core/agent/v23DynamicImport.ts',
    code: "export const later = () => import('./toolLoop');\n",
    eslint: ['no-restricted-syntax'],
    depcruise: ['no-dynamic-import-in-product-code'],
  },
  {
    what: 'a room not listed as lazy loads a module with import() from a lazy.ts',
    file: 'src-main/core/mcp/lazy.ts',
    code: "export const later = () => import('./sessionActor');\n",
    eslint: ['no-restricted-syntax'],
    depcruise: ['no-dynamic-import-in-product-code'],
  },
  {
    what: "a listed room's lazy.ts loads a module of another room",
    file: 'src-main/core/agent/lazy.ts',
    append: true,
    code: "export const elsewhere = () => import('../calls/toolService');\n",
    eslint: ['no-restricted-syntax'],
    depcruise: ['lazy-agent-loads-its-own-room'],
  },
  {
    what: "a listed room's lazy.ts loads a module it may not import at all",
    file: 'src-main/core/safety/lazy.ts',
    append: true,
    code: "export const upward = () => import('../agent/chatService');\n",
    eslint: ['no-restricted-syntax'],
    depcruise: ['room-safety', 'lazy-safety-loads-its-own-room'],
  },
  {
    what: "a listed room's lazy.ts loads a computed name",
    file: 'src-main/core/serve/lazy.ts',
    append: true,
    code: 'export const computed = (name: string) => import(name);\n',
    eslint: ['no-restricted-syntax'],
  },
  {
    what: 'the renderer imports the router as a value',
    file: 'src-renderer/src/v24RouterValue.ts',
    code: "import { appRouter } from '../../src-main/core/api/router';\nexport const r = appRouter;\n",
    eslint: ['@typescript-eslint/no-restricted-imports'],
    depcruise: ['renderer-router-import-is-type-only'],
  },
  {
    what: 'a module imports itself (a cycle)',
    file: 'src-main/core/memory/v25Cycle.ts',
    code: "import { one as first } from './v25Cycle';\nexport const one = 1;\nexport const two = () => first + 1;\n",
    depcruise: ['no-circular'],
  },
  {
    what: 'the CLI imports the Electron shell',
    file: 'src-main/cli/v26ImportsShell.ts',
    code: "import { MCP_SERVER_FLAG } from '../electron/mcpServerMode';\nexport const flag = MCP_SERVER_FLAG;\n",
    depcruise: ['hosts-do-not-import-each-other'],
  },
  {
    what: 'the kernel imports a room',
    file: 'src-main/core/errors.ts',
    append: true,
    code: "import type { ToolsChange } from './mcp/types';\nexport type KernelChange = ToolsChange;\n",
    depcruise: ['kernel-imports-no-room'],
  },
  {
    what: 'the composition root imports the router',
    file: 'src-main/core/mooringCore.ts',
    append: true,
    code: "import type { AppRouter } from './api/router';\nexport type RootRouter = AppRouter;\n",
    depcruise: ['the-root-is-not-a-door'],
  },
];

const OWN: Record<Layer, RegExp> = {
  shared: /^shared\//,
  node: /^(src-main|src-preload|test|scripts)\//,
  renderer: /^src-renderer\//,
};

let scratch: string;
const eslintRules = new Map<string, Set<string>>();
const cruiseRules = new Map<string, Set<string>>();
const tscErrors: Record<Layer, Set<string>> = { shared: new Set(), node: new Set(), renderer: new Set() };

function run(args: string[]): string {
  const r = spawnSync(process.execPath, args, {
    cwd: scratch,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return r.stdout;
}
const add = (m: Map<string, Set<string>>, file: string, rule: string) =>
  m.set(file, (m.get(file) ?? new Set()).add(rule));

beforeAll(() => {
  // Not a mooring-* folder: it is a copy of the repo (test secrets in its test files), not a Mooring home,
  // and the end-of-suite scan (scripts/scanSecrets.mjs) reads every mooring-* folder a run leaves.
  scratch = mkdtempSync(join(tmpdir(), 'layering-scratch-'));
  // bench/ stays (tests import its tool generators); its results and compiled scripts do not.
  const skip = new Set(['node_modules', '.git', 'out', 'dist', 'test-results', 'bench/results']);
  cpSync(ROOT, scratch, {
    recursive: true,
    filter: (src) => {
      const parts = relative(ROOT, src).split('/');
      return !skip.has(parts[0]!) && !skip.has(parts.slice(0, 2).join('/'));
    },
  });
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  for (const v of V)
    if (v.append) appendFileSync(join(scratch, v.file), `\n${v.code}`);
    else writeFileSync(join(scratch, v.file), v.code);

  const lint = JSON.parse(
    run([
      'node_modules/eslint/bin/eslint.js',
      '--format',
      'json',
      '--no-warn-ignored',
      ...V.filter((v) => v.eslint).map((v) => v.file),
    ]),
  ) as { filePath: string; messages: { ruleId: string | null }[] }[];
  for (const f of lint)
    for (const m of f.messages) add(eslintRules, relative(scratch, f.filePath), m.ruleId ?? 'parse error');

  const cruise = JSON.parse(
    run([
      'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
      'src-main',
      'shared',
      'src-renderer',
      'src-preload',
      '--output-type',
      'json',
    ]),
  ) as { summary: { violations: { from: string; rule: { name: string } }[] } };
  for (const v of cruise.summary.violations) add(cruiseRules, v.from, v.rule.name);

  // Each layer's compiler settings are tried on that layer's violation files only (a scratch tsconfig that
  // extends the layer's): the whole sources' type check is `npm test`'s own step, and three more full
  // programs here cost minutes of a loaded machine for no more evidence.
  for (const layer of ['shared', 'node', 'renderer'] as const) {
    const files = V.filter((v) => v.tsc === layer).map((v) => v.file);
    if (!files.length) continue;
    const config = `tsconfig.layering-${layer}.json`;
    writeFileSync(
      join(scratch, config),
      JSON.stringify({ extends: `./tsconfig.${layer}.json`, include: files }),
    );
    for (const line of run(['node_modules/typescript/bin/tsc', '-p', config, '--pretty', 'false']).split(
      '\n',
    )) {
      const m = /^(.+?)\(\d+,\d+\): error TS\d+/.exec(line);
      // Each layer's program answers for its own files; another layer's file it reaches is there only
      // through a violating import, which that import's own check reports.
      if (m && OWN[layer].test(m[1]!)) tscErrors[layer].add(m[1]!);
    }
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('every layering rule fires on its violation', () => {
  it.each(V.map((v) => [v.what, v] as const))('%s', (_what, v) => {
    for (const rule of v.eslint ?? []) expect([...(eslintRules.get(v.file) ?? [])]).toContain(rule);
    for (const rule of v.depcruise ?? []) expect([...(cruiseRules.get(v.file) ?? [])]).toContain(rule);
    if (v.tsc) expect([...tscErrors[v.tsc]]).toContain(v.file);
    expect(v.eslint?.length || v.depcruise?.length || v.tsc).toBeTruthy();
  });

  it('reports nothing else: the sources as they are pass every check', () => {
    const ours = new Set(V.map((v) => v.file));
    const others = [
      ...[...eslintRules.keys()].filter((f) => !ours.has(f)),
      ...[...cruiseRules.keys()].filter((f) => !ours.has(f)),
      ...Object.values(tscErrors).flatMap((s) => [...s].filter((f) => !ours.has(f))),
    ];
    // The root's import of the router closes a cycle through the router's own import of the root.
    expect(others.filter((f) => !f.startsWith('src-main/core/api/'))).toEqual([]);
  });
});
