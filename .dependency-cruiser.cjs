// The rooms of the core and what each may import (ARCHITECTURE.md, "Rooms and what they may import").
// `npx depcruise src-main shared src-renderer src-preload` checks every import, type-only ones
// included; test/layering.test.ts writes violations into a scratch copy and expects each one reported.
// Tests are outside the rules: they may wire any rooms together.

/** Room → the rooms it may import (besides itself, shared/ and the kernel: errors.ts, home.ts, tokenCount.ts, disposable.ts, eventBus.ts). */
const ROOMS = {
  secrets: [],
  config: ['secrets'],
  mcp: [],
  safety: ['config'],
  catalog: ['mcp'],
  clientFeatures: ['mcp', 'safety'],
  auth: ['mcp', 'safety', 'secrets'],
  workspace: ['config', 'mcp', 'safety', 'secrets'],
  memory: ['config'],
  install: ['config', 'safety', 'secrets'],
  tasks: ['config', 'mcp'],
  calls: ['catalog', 'mcp', 'safety', 'tasks'],
  agent: ['calls', 'catalog', 'clientFeatures', 'config', 'sandbox', 'secrets'],
  services: ['calls', 'catalog', 'config', 'mcp', 'safety', 'secrets', 'skills', 'workspace'],
  serve: ['agent', 'calls', 'catalog', 'config', 'memory', 'safety'],
  schedules: ['config'],
  apps: ['calls', 'catalog', 'clientFeatures', 'mcp', 'safety'],
  confine: ['config', 'mcp'],
  skills: ['config', 'mcp'],
  sandbox: [],
};
const KERNEL = ['errors\\.ts', 'home\\.ts', 'tokenCount\\.ts', 'disposable\\.ts', 'eventBus\\.ts'];
const core = 'src-main/core/';
/** The composition root and the parts it builds first (ARCHITECTURE.md, "The core as one object"). */
const ROOT = ['mooringCore\\.ts', 'coreSessions\\.ts', 'coreServers\\.ts', 'coreConversations\\.ts'];
/**
 * Rooms that load some modules on first use (docs/decisions/003-lazy-rooms.md): each through one file,
 * `<room>/lazy.ts`, whose import() calls load a package or a module of its own room. Nowhere else.
 */
const LAZY_ROOMS = ['agent', 'install', 'safety', 'sandbox', 'serve'];
const lazyFile = `^${core}(${LAZY_ROOMS.join('|')})/lazy\\.ts$`;
/** The renderer's one file that loads modules on first use: its screens (docs/decisions/008-renderer-build.md). */
const lazyScreens = '^src-renderer/src/screens/lazyScreens\\.ts$';

const roomRules = Object.entries(ROOMS).map(([room, allowed]) => ({
  name: `room-${room}`,
  comment: `${room}/ may import only ${allowed.length ? allowed.join(', ') : 'no other room'} (and shared/, the kernel)`,
  severity: 'error',
  from: { path: `^${core}${room}/`, pathNot: '\\.test\\.tsx?$' },
  to: {
    path: `^${core}`,
    pathNot: `^${core}(${[room, ...allowed].map((r) => `${r}/`).join('|')}|${KERNEL.join('|')})`,
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles in product code: between rooms they make the layering meaningless.',
      severity: 'error',
      from: { pathNot: '\\.test\\.tsx?$' },
      to: { circular: true },
    },
    ...roomRules,
    {
      name: 'kernel-imports-no-room',
      comment: 'errors.ts, home.ts, tokenCount.ts, disposable.ts and eventBus.ts sit under every room.',
      severity: 'error',
      from: { path: `^${core}(${KERNEL.join('|')})$` },
      to: { path: `^${core}`, pathNot: `^${core}(${KERNEL.join('|')})$` },
    },
    {
      name: 'rooms-do-not-import-the-root-or-the-doors',
      comment: 'Only the hosts, the router and browser mode use the composition root; rooms get interfaces.',
      severity: 'error',
      from: { path: `^${core}(${Object.keys(ROOMS).join('|')})/`, pathNot: '\\.test\\.tsx?$' },
      to: { path: `^${core}(${ROOT.join('|')}|lifecycle\\.ts|api/|web/)` },
    },
    {
      name: 'the-root-is-not-a-door',
      comment: 'The composition root builds the rooms; the router and browser mode sit above it.',
      severity: 'error',
      from: { path: `^${core}(${ROOT.join('|')})$` },
      to: { path: `^${core}(api|web)/` },
    },
    {
      name: 'nothing-imports-the-renderer',
      comment: 'The renderer is the top layer (ARCHITECTURE.md, Layers).',
      severity: 'error',
      from: { path: '^(src-main|src-preload|shared)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src-renderer/' },
    },
    {
      name: 'core-imports-no-host',
      comment: 'The core never imports electron or its hosts (src-main/electron, src-main/cli).',
      severity: 'error',
      from: { path: `^${core}`, pathNot: '\\.test\\.tsx?$' },
      to: { path: '(^src-main/(electron|cli)/|(^|/)node_modules/electron/)' },
    },
    {
      name: 'electron-only-in-the-shell',
      comment: 'electron is imported in src-main/electron and src-preload only.',
      severity: 'error',
      from: { pathNot: '^(src-main/electron|src-preload)/' },
      to: {
        path: '(^|/)node_modules/electron/',
        dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer'],
      },
    },
    {
      name: 'hosts-do-not-import-each-other',
      severity: 'error',
      from: { path: '^src-main/(cli|electron)/' },
      to: { path: '^src-main/(cli|electron)/', pathNot: '^src-main/$1/' },
    },
    {
      name: 'shared-imports-no-src',
      comment: 'shared/ holds contracts; it imports nothing from src-*.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^src-' },
    },
    {
      name: 'shared-and-renderer-have-no-node',
      comment: 'shared/ and the renderer run in the browser: no Node built-in.',
      severity: 'error',
      from: { path: '^(shared|src-renderer)/', pathNot: '\\.test\\.tsx?$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'renderer-sees-only-the-router-type',
      comment:
        'The renderer imports shared/ and, type-only, the router: nothing else from src-main or the preload.',
      severity: 'error',
      from: { path: '^src-renderer/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^src-(main|preload)/', pathNot: `^${core}api/router\\.ts$` },
    },
    {
      name: 'renderer-router-import-is-type-only',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: `^${core}api/router\\.ts$`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'preload-imports-shared-only',
      severity: 'error',
      from: { path: '^src-preload/' },
      to: { path: '^src-main/' },
    },
    {
      name: 'no-dynamic-import-in-product-code',
      comment:
        "import() hides a dependency: only the optional keychain module and the listed rooms' lazy.ts use it.",
      severity: 'error',
      from: {
        path: '^(src-main|src-preload|src-renderer|shared)/',
        pathNot: `(\\.test\\.tsx?$|^${core}secrets/secretStore\\.ts$|${lazyFile}|${lazyScreens})`,
      },
      to: { dependencyTypes: ['dynamic-import'] },
    },
    {
      name: 'lazy-screens-load-screens',
      comment: 'lazyScreens.ts loads the screen modules of its folder, nothing else.',
      severity: 'error',
      from: { path: lazyScreens },
      to: { dependencyTypes: ['dynamic-import'], pathNot: '^src-renderer/src/screens/' },
    },
    ...LAZY_ROOMS.map((room) => ({
      name: `lazy-${room}-loads-its-own-room`,
      comment: `${room}/lazy.ts loads packages and ${room}/ modules only; anything else is imported statically.`,
      severity: 'error',
      from: { path: `^${core}${room}/lazy\\.ts$` },
      to: {
        dependencyTypes: ['dynamic-import'],
        path: '^(src-main|src-preload|src-renderer|shared)/',
        pathNot: `^${core}${room}/`,
      },
    })),
  ],
  options: {
    tsPreCompilationDeps: true,
    // A checkout whose node_modules is a link (a scratch copy, a worktree) resolves like the real one.
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
