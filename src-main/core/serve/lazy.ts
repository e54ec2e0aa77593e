// What serve/ loads on first use, and the only file of the room that may (docs/decisions/003-lazy-rooms.md):
// the MCP server SDK behind Mooring's own server. Every core holds the sharing service (Settings > Share),
// but only `mooring serve` and a started share run a server; the rest never load it.
export const loadHttpServer = () => import('./httpServer');
