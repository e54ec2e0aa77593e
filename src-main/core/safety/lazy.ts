// What safety/ loads on first use, and the only file of the room that may (docs/decisions/003-lazy-rooms.md):
// undici, for the SSRF-guarded fetch of remote servers, is as large as the rest of the core together, and a
// process with stdio servers only never makes such a request. Memoised by the module system.
export const loadUndici = () => import('undici');
