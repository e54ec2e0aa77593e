// The renderer's only view of the core: the router's type, erased at build (ARCHITECTURE.md, Layers:
// "the renderer imports shared/ and the router's type only"). Every other contract is in shared/.
export type { AppRouter } from '../../../src-main/core/api/router';
