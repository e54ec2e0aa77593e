// Layering (ARCHITECTURE.md "Layers" and "Rooms and what they may import"): imports point down the list
// only, shared/ and the renderer have no Node, and no product code hides a dependency in import().
// ESLint checks each file; dependency-cruiser (.dependency-cruiser.cjs) checks the rooms of the core;
// one tsconfig per layer checks its environment; test/layering.test.ts proves each rule still fires.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const electronOnly = {
  name: 'electron',
  message: 'Only src-main/electron and src-preload may import electron (ARCHITECTURE.md, Layers).',
};
/** Every Node built-in, bare (`fs`, `crypto`) and with the `node:` prefix. */
const nodeBuiltins = (why) =>
  [...new Set(builtinModules.filter((m) => !m.startsWith('_')))]
    .flatMap((m) => [m, `node:${m}`])
    .map((name) => ({ name, message: why }));
const noMain = {
  group: ['**/src-main/**', '../src-main/*'],
  message: 'This layer may not import from src-main.',
};
const noRenderer = {
  group: ['**/src-renderer/**', '../src-renderer/*'],
  message: 'Nothing imports the renderer: it is the top layer (ARCHITECTURE.md, Layers).',
};
const noHosts = {
  group: ['**/electron/**', '**/cli/**', '../electron/*', '../cli/*', '../../electron/*', '../../cli/*'],
  message: 'The core may not import its hosts (src-main/electron, src-main/cli).',
};
/** The SDK client lives in one place: every request to a server goes through the session's request handler. */
const sdkClient = {
  name: '@modelcontextprotocol/client',
  importNames: ['Client'],
  message:
    'Only the session\'s request handler holds the SDK client (src-main/core/mcp/requestHandler.ts; ARCHITECTURE.md, "The path of one tool call"): send requests through SessionActor.requests.',
};
const nodeGlobals = (why) =>
  ['Buffer', 'process', 'require', '__dirname', '__filename', 'global', 'module', 'exports'].map((name) => ({
    name,
    message: why,
  }));
const noDynamicImport = {
  selector: 'ImportExpression',
  message:
    'No import() in product code: it hides a dependency from readers and from the layering checks. Import statically.',
};
const restricted = (opts) => ['error', opts];
/** Must match LAZY_ROOMS in .dependency-cruiser.cjs. */
const LAZY_ROOMS = ['agent', 'install', 'safety', 'sandbox', 'serve'];
const lazyImportLimits = [
  {
    selector: "ImportExpression[source.type!='Literal']",
    message: 'A lazy.ts loads a module named literally, so readers and the layering checks see it.',
  },
  {
    selector: 'ImportExpression[source.value=/^(\\.\\.\\/|\\/)/]',
    message: "A lazy.ts loads a package or a module of its own room ('./…'), never one outside it.",
  },
];

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'test-results', 'bench/results', 'resources'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': restricted({ paths: [electronOnly] }),
    },
  },
  {
    // Node everywhere but shared/ and the renderer.
    files: [
      'src-main/**',
      'src-preload/**',
      'test/**',
      'bench/**',
      'scripts/**',
      'e2e/**',
      'bin/**',
      '*.{js,ts,mjs}',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS preloads (node -r) for test servers.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src-main/**', 'src-preload/**', 'shared/**', 'src-renderer/**'],
    rules: { 'no-restricted-syntax': ['error', noDynamicImport] },
  },
  {
    // Tests load optional modules and fixtures on demand.
    files: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The keychain module is optional (keytar may not build): loaded on first use, its absence a clear error.
    files: ['src-main/core/secrets/secretStore.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The rooms that load some modules on first use, each through its one lazy.ts (docs/decisions/003-lazy-rooms.md):
    // a literal specifier naming a package or a module of the room itself, nothing computed, nothing outside.
    files: LAZY_ROOMS.map((room) => `src-main/core/${room}/lazy.ts`),
    rules: { 'no-restricted-syntax': ['error', ...lazyImportLimits] },
  },
  {
    // The renderer's screens, each loaded when first shown (docs/decisions/008-renderer-build.md): one file,
    // a screen module of its own folder named literally.
    files: ['src-renderer/src/screens/lazyScreens.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportExpression[source.type!='Literal']",
          message:
            'lazyScreens.ts loads a screen named literally, so readers and the layering checks see it.',
        },
        {
          selector: 'ImportExpression[source.value!=/^\\.\\/[\\w/]+$/]',
          message: "lazyScreens.ts loads screen modules of its own folder ('./…') only.",
        },
      ],
    },
  },
  {
    files: ['src-main/electron/**'],
    rules: { 'no-restricted-imports': restricted({ patterns: [noRenderer] }) },
  },
  {
    files: ['src-preload/**'],
    rules: { 'no-restricted-imports': restricted({ patterns: [noMain, noRenderer] }) },
  },
  {
    files: ['src-main/core/**'],
    rules: {
      'no-restricted-imports': restricted({
        paths: [electronOnly, sdkClient],
        patterns: [noHosts, noRenderer],
      }),
    },
  },
  {
    files: ['src-main/cli/**'],
    rules: {
      'no-restricted-imports': restricted({ paths: [electronOnly, sdkClient], patterns: [noRenderer] }),
    },
  },
  {
    // The request handler itself, and tests (they may drive a raw SDK client against Mooring's servers).
    files: ['src-main/core/mcp/requestHandler.ts', 'src-main/core/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restricted({ paths: [electronOnly], patterns: [noHosts, noRenderer] }),
    },
  },
  {
    files: ['src-main/cli/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': restricted({ paths: [electronOnly], patterns: [noRenderer] }) },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': restricted({
        paths: [electronOnly, ...nodeBuiltins('shared/ is Node-free: the renderer imports it.')],
        patterns: [
          noMain,
          noRenderer,
          {
            group: ['**/src-preload/**', '../src-preload/*'],
            message: 'shared/ imports nothing from src-*.',
          },
        ],
      }),
      'no-restricted-globals': ['error', ...nodeGlobals('shared/ is Node-free: the renderer imports it.')],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': restricted({
        paths: [electronOnly, ...nodeBuiltins('The renderer has no Node.')],
        patterns: [
          noMain,
          { group: ['**/src-preload/**'], message: 'The renderer talks to the bridge only.' },
        ],
      }),
      'no-restricted-globals': [
        'error',
        ...nodeGlobals('The renderer has no Node: ask the core through the router.'),
      ],
    },
  },
  {
    // The one place the renderer sees the core: the router's type, erased at build.
    files: ['src-renderer/src/api/routerTypes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restricted({
        paths: [electronOnly, ...nodeBuiltins('The renderer has no Node.')],
        patterns: [{ ...noMain, allowTypeImports: true }],
      }),
    },
  },
);
