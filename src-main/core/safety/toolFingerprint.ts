// Tool fingerprints: an approval is pinned to exactly the tool the user saw. If the server later
// changes the description, the input schema or the annotations (a "rug pull", see Invariant Labs' MCP tool
// poisoning write-up), the fingerprint changes and a remembered approval lapses.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { ServerConfig } from '@shared/config';
import type { ToolAnnotationHints, ToolChange } from '@shared/approval';
import { isLocalTransport } from '@shared/transports';

/** What identifies a server for fingerprints: its name and what it runs or where it connects. */
export interface ServerIdentity {
  name: string;
  command?: string;
  args?: string[];
  url?: string;
}

/** The parts of an MCP `Tool` that a fingerprint covers. */
export interface FingerprintedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: ToolAnnotationHints;
}

/** The snapshot an approval keeps, so a lapsed approval can show what changed. */
export interface ToolSnapshot {
  identity: ServerIdentity;
  tool: FingerprintedTool;
}

type IdentityFields = Pick<ServerConfig, 'name' | 'transport' | 'command' | 'args' | 'url'>;

const identities = new WeakMap<IdentityFields, Readonly<ServerIdentity>>();
/**
 * One frozen identity per config object (a config edit replaces the object), so a call's decision neither
 * copies the arguments nor serialises the identity again for the fingerprint's memo.
 */
export function serverIdentity(config: IdentityFields): Readonly<ServerIdentity> {
  let id = identities.get(config);
  if (!id) {
    id = Object.freeze(
      isLocalTransport(config.transport)
        ? { name: config.name, command: config.command, args: Object.freeze([...config.args]) as string[] }
        : { name: config.name, url: config.url },
    );
    identities.set(config, id);
  }
  return id;
}

const identityKeys = new WeakMap<ServerIdentity, string>();
/** Plain JSON of an identity (built in one fixed key order by serverIdentity), once per identity object. */
function identityKey(identity: ServerIdentity): string {
  let key = identityKeys.get(identity);
  if (key === undefined) {
    key = JSON.stringify(identity);
    identityKeys.set(identity, key);
  }
  return key;
}

/** Keep only the fingerprinted fields, so extra fields (`_meta`, icons) never change the fingerprint. */
export function snapshotTool(tool: FingerprintedTool): FingerprintedTool {
  const out: FingerprintedTool = { name: tool.name };
  if (tool.title !== undefined) out.title = tool.title;
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.inputSchema !== undefined) out.inputSchema = tool.inputSchema;
  if (tool.annotations !== undefined) out.annotations = tool.annotations;
  return out;
}

function normaliseIdentity(id: ServerIdentity): ServerIdentity {
  const out: ServerIdentity = { name: id.name };
  if (id.command !== undefined) out.command = id.command;
  if (id.args !== undefined && (id.command !== undefined || id.args.length)) out.args = id.args;
  if (id.url !== undefined) out.url = id.url;
  return out;
}

/** RFC 8785 canonical JSON, so key order and number formatting never change a fingerprint. */
export function canonicalJson(value: unknown): string {
  return canonicalize(value) ?? 'null';
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `sha256:<hex>` over the canonical JSON of (server identity, tool name, title, description, schema, annotations). */
export function toolFingerprint(identity: ServerIdentity, tool: FingerprintedTool): string {
  // Hashing the canonical schema costs more than a whole tool call; the same tool object under the
  // same identity always has the same fingerprint, so it is computed once per object.
  // The identity is a small object built in one fixed key order (serverIdentity): plain JSON is a
  // cheap, sufficient cache key; the fingerprint itself still hashes the canonical form.
  const idKey = identityKey(identity);
  const cached = fingerprintCache.get(tool);
  if (cached?.idKey === idKey) return cached.fingerprint;
  const body = { v: 1, server: normaliseIdentity(identity), tool: snapshotTool(tool) };
  const fingerprint = `sha256:${sha256Hex(canonicalJson(body))}`;
  fingerprintCache.set(tool, { idKey, fingerprint });
  return fingerprint;
}

const fingerprintCache = new WeakMap<FingerprintedTool, { idKey: string; fingerprint: string }>();

const json = (v: unknown) => canonicalJson(v);
const clip = (s: string, max = 400) => (s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s);

/** Every leaf of a JSON value by JSON Pointer (RFC 6901); empty objects and arrays are leaves too. */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  const isObj = value !== null && typeof value === 'object';
  const entries = isObj ? Object.entries(value as Record<string, unknown>) : [];
  if (!isObj || entries.length === 0) {
    out.set(path || '/', value);
    return out;
  }
  for (const [k, v] of entries) leaves(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
  return out;
}

function diffValues(kind: ToolChange['kind'], label: string, a: unknown, b: unknown): ToolChange[] {
  const before = leaves(a);
  const after = leaves(b);
  const changes: ToolChange[] = [];
  for (const [path, v] of before) {
    if (!after.has(path))
      changes.push({
        kind,
        path,
        change: 'removed',
        before: clip(json(v)),
        summary: `${label} ${path} removed`,
      });
    else if (json(after.get(path)) !== json(v))
      changes.push({
        kind,
        path,
        change: 'changed',
        before: clip(json(v)),
        after: clip(json(after.get(path))),
        summary: `${label} ${path} changed`,
      });
  }
  for (const [path, v] of after)
    if (!before.has(path))
      changes.push({ kind, path, change: 'added', after: clip(json(v)), summary: `${label} ${path} added` });
  return changes;
}

function diffText(kind: 'description' | 'title', a: string | undefined, b: string | undefined): ToolChange[] {
  if (a === b) return [];
  const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
  const c: ToolChange = { kind, change, summary: `${kind} ${change}` };
  if (a !== undefined) c.before = clip(a, 2000);
  if (b !== undefined) c.after = clip(b, 2000);
  return [c];
}

/**
 * What changed between the approved snapshot and the tool as the server now lists it, for the approval
 * dialog: description before/after, schema paths added/removed/changed, annotation changes, identity.
 */
export function diffTools(before: ToolSnapshot, after: ToolSnapshot): ToolChange[] {
  const changes: ToolChange[] = [];
  const idA = json(normaliseIdentity(before.identity));
  const idB = json(normaliseIdentity(after.identity));
  if (idA !== idB)
    changes.push({
      kind: 'identity',
      change: 'changed',
      before: idA,
      after: idB,
      summary: 'server command or URL changed',
    });
  if (before.tool.name !== after.tool.name)
    changes.push({
      kind: 'identity',
      path: 'name',
      change: 'changed',
      before: before.tool.name,
      after: after.tool.name,
      summary: 'tool name changed',
    });
  changes.push(...diffText('title', before.tool.title, after.tool.title));
  changes.push(...diffText('description', before.tool.description, after.tool.description));
  changes.push(
    ...diffValues('schema', 'schema', before.tool.inputSchema ?? {}, after.tool.inputSchema ?? {}),
  );
  const annA = before.tool.annotations ?? {};
  const annB = after.tool.annotations ?? {};
  for (const key of new Set([...Object.keys(annA), ...Object.keys(annB)])) {
    const a = (annA as Record<string, unknown>)[key];
    const b = (annB as Record<string, unknown>)[key];
    if (json(a) === json(b)) continue;
    const change = a === undefined ? 'added' : b === undefined ? 'removed' : 'changed';
    const c: ToolChange = { kind: 'annotation', path: key, change, summary: `annotation ${key} ${change}` };
    if (a !== undefined) c.before = json(a);
    if (b !== undefined) c.after = json(b);
    changes.push(c);
  }
  return changes;
}
