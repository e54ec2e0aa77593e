// Model-facing tool names. Pure: the renderer shows friendly names from the same helpers.
//
// Every MCP tool reaches the model as `mcp__{serverSeg}__{toolSeg}`. Model APIs accept only
// `^[A-Za-z0-9_-]{1,64}$` (OpenAI and Anthropic both), so segments are sanitised and the name is
// shortened with a short deterministic hash when needed.
//
// Unambiguity rule (property-tested in toolNames.test.ts):
//   a server segment never contains "__" and never ends with "_".
// A server name that breaks the rule (config allows `a__b` or `a_`) is replaced by a sanitised form
// ending in "-" + 8 hex digits, which obeys it. Given the rule, the first "__" after the `mcp__`
// prefix is exactly the delimiter: it cannot start inside the segment (no "__" there) nor on its
// last character (that would need a trailing "_"). The tool segment is everything after it and
// may contain anything allowed, "__" included. Built-in tools (`tool_search`) never start with
// `mcp__`, so the two name spaces cannot collide.

export const MODEL_NAME_PREFIX = 'mcp__';
export const MODEL_NAME_DELIMITER = '__';
export const MAX_MODEL_NAME_LENGTH = 64;
const VALID_SEGMENT = /^[A-Za-z0-9_-]+$/;
/** Server segments longer than this are shortened first when a name is over 64 characters. */
const MAX_SHORT_SERVER_SEGMENT = 24;

/** FNV-1a 32-bit as 8 hex digits: deterministic, tiny, and Node-free (shared/ may not use node:crypto). */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function isPlainServerSegment(s: string): boolean {
  return s.length > 0 && VALID_SEGMENT.test(s) && !s.includes('__') && !s.endsWith('_');
}

/** Replace disallowed characters and collapse "_" runs so the result can carry a hash suffix safely. */
function sanitize(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_');
}

/** `prefix-hash`: ends in a hex digit and holds no "__", so it always satisfies the server rule. */
function hashed(original: string, keep: number): string {
  const base = sanitize(original).slice(0, Math.max(0, keep)).replace(/_+$/, '');
  return `${base}-${shortHash(original)}`;
}

export function serverSegment(server: string): string {
  return isPlainServerSegment(server) ? server : hashed(server, 15);
}

export function toolSegment(tool: string): string {
  return tool.length > 0 && VALID_SEGMENT.test(tool) ? tool : hashed(tool, 40);
}

/**
 * The model-facing name of a server's tool. Deterministic: the same (server, tool) always gives
 * the same name. Short names are the readable `mcp__server__tool`; long or unusual names are cut
 * and get an 8-hex-digit hash of the original so they stay distinct.
 */
export function toModelName(server: string, tool: string): string {
  return modelNameWithSegment(server, serverSegment(server), tool);
}

/** `toModelName` with the server's segment already computed (a catalog computes it once per server). */
function modelNameWithSegment(server: string, segment: string, tool: string): string {
  let s = segment;
  let t = toolSegment(tool);
  const overhead = MODEL_NAME_PREFIX.length + MODEL_NAME_DELIMITER.length;
  if (overhead + s.length + t.length <= MAX_MODEL_NAME_LENGTH)
    return MODEL_NAME_PREFIX + s + MODEL_NAME_DELIMITER + t;
  if (s.length > MAX_SHORT_SERVER_SEGMENT) s = hashed(server, MAX_SHORT_SERVER_SEGMENT - 9);
  const room = MAX_MODEL_NAME_LENGTH - overhead - s.length;
  if (t.length > room) t = `${sanitize(tool).slice(0, room - 9)}-${shortHash(`${server}\u0000${tool}`)}`;
  return MODEL_NAME_PREFIX + s + MODEL_NAME_DELIMITER + t;
}

export interface ParsedModelName {
  /** The server segment (equal to the server name unless it was sanitised). */
  serverSegment: string;
  toolSegment: string;
}

/** Split a model name at its delimiter; undefined when it is not an `mcp__…__…` name. */
export function parseModelName(name: string): ParsedModelName | undefined {
  if (!name.startsWith(MODEL_NAME_PREFIX)) return undefined;
  const at = name.indexOf(MODEL_NAME_DELIMITER, MODEL_NAME_PREFIX.length);
  if (at <= MODEL_NAME_PREFIX.length) return undefined;
  const t = name.slice(at + MODEL_NAME_DELIMITER.length);
  if (t.length === 0) return undefined;
  return { serverSegment: name.slice(MODEL_NAME_PREFIX.length, at), toolSegment: t };
}

/** What the UI shows: the tool's own title when it has one, else its name, with the server. */
export function friendlyName(server: string, tool: string, title?: string): string {
  return `${title && title.trim() ? title.trim() : tool} (${server})`;
}

export interface ToolRef {
  server: string;
  tool: string;
}

/**
 * Maps every model name back to (server, tool). Deterministic naming can, in theory, give two
 * pairs the same name (a literal tool called `x-1a2b3c4d` next to a sanitised `x.`): the registry
 * notices and gives the later pair a name with a hash of both parts instead of silently aliasing.
 */
export class ToolNameRegistry {
  private readonly byName = new Map<string, ToolRef>();
  private readonly byPair = new Map<string, string>();
  /** Each server's segment, computed once (a catalog adds thousands of tools of a few servers). */
  private readonly segments = new Map<string, string>();

  add(server: string, tool: string): string {
    const key = `${server}\u0000${tool}`;
    const known = this.byPair.get(key);
    if (known) return known;
    let segment = this.segments.get(server);
    if (segment === undefined) this.segments.set(server, (segment = serverSegment(server)));
    let name = modelNameWithSegment(server, segment, tool);
    if (this.byName.has(name)) {
      const h = shortHash(`collision\u0000${key}`);
      name = `${name.slice(0, MAX_MODEL_NAME_LENGTH - 9)}-${h}`;
      if (!parseModelName(name))
        name = `${MODEL_NAME_PREFIX}${hashed(server, 15)}${MODEL_NAME_DELIMITER}${h}`;
    }
    this.byName.set(name, { server, tool });
    this.byPair.set(key, name);
    return name;
  }

  lookup(modelName: string): ToolRef | undefined {
    return this.byName.get(modelName);
  }

  nameOf(server: string, tool: string): string | undefined {
    return this.byPair.get(`${server}\u0000${tool}`);
  }

  get size(): number {
    return this.byName.size;
  }
}
