#!/usr/bin/env node
// The `mooring` command: runs the TypeScript CLI through tsx, with the project's tsconfig wherever it is called from.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src-main/cli/index.ts');
