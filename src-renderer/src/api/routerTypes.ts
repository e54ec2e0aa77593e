// The renderer's only view of the core: the router's type, erased at build (ARCHITECTURE.md, Layers:
// "the renderer imports shared/ and the router's type only"). Every other contract is in shared/.
/* eslint-disable no-restricted-imports -- the one type-only import of the core the layering allows */
export type { AppRouter } from '../../../src-main/core/api/router';
