// What install/ loads on first use, and the only file of the room that may (docs/decisions/003-lazy-rooms.md):
// the bundle format's manifest schemas (@anthropic-ai/mcpb brings its own zod 3, whose ~560 schemas bind
// their methods at import: ~2 MB of heap in every process) and the zip reader, for a `.mcpb` file only.
export const loadMcpbSchemas = () => import('@anthropic-ai/mcpb/schemas');
export const loadYauzl = () => import('yauzl');
