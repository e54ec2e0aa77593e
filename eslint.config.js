// Layering (ARCHITECTURE.md "Layers"): imports point down the list only.
// shared → core → hosts (electron, cli) → preload → renderer. Enforced here, not by hope.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const electronOnly = {
  paths: [
    {
      name: 'electron',
      message: 'Only src-main/electron and src-preload may import electron (ARCHITECTURE.md, Layers).',
    },
  ],
};
const noMain = {
  group: ['**/src-main/**', '../src-main/*'],
  message: 'This layer may not import from src-main.',
};
const noHosts = {
  group: ['**/electron/**', '**/cli/**', '../electron/*', '../cli/*', '../../electron/*', '../../cli/*'],
  message: 'The core may not import its hosts (src-main/electron, src-main/cli).',
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', 'test-results', 'bench/results', 'resources'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': ['error', electronOnly],
    },
  },
  {
    // CommonJS preloads (node -r) for test servers.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src-main/electron/**', 'src-preload/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src-main/core/**'],
    rules: { 'no-restricted-imports': ['error', { ...electronOnly, patterns: [noHosts] }] },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOnly,
          patterns: [
            noMain,
            { group: ['node:*'], message: 'shared/ is Node-free: the renderer imports it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        { ...electronOnly, patterns: [noMain, { group: ['node:*'], message: 'The renderer has no Node.' }] },
      ],
    },
  },
);
