// The schema pipeline for one tool definition: resolve refs → flatten → adapt for the provider.
// Cached per definition object: the session room replaces `definition` when a tool changes
// (src-main/core/mcp/types.ts), so an unchanged tool is never reprocessed on a catalog rebuild.

import type { Tool } from '@modelcontextprotocol/client';
import { adaptSchemaForProvider, type Provider } from './adaptSchema';
import { flattenSchema, type FlattenOptions } from './schemaFlatten';
import { schemaSurelyAdapts } from './schemaPrecheck';
import { resolveRefs } from './schemaRefs';
import type { JsonSchema } from './schemaWalk';

export interface ProcessedSchema {
  /** The server's schema with refs inlined: what arguments are coerced against. */
  serverSchema: unknown;
  /** What the model sees; undefined when the tool cannot be adapted. */
  modelSchema: JsonSchema | undefined;
  flattened: boolean;
  excludedReason?: string;
  /** Human-readable notes on what was changed (refs cut, merged combinators…). */
  notes: string[];
}

const cache = new WeakMap<object, Map<string, ProcessedSchema>>();

function cacheKey(provider: Provider, flatten: FlattenOptions): string {
  return `${provider}:${flatten.maxDepth ?? ''}:${flatten.maxLeaves ?? ''}`;
}

export function processToolSchema(
  def: Tool,
  provider: Provider,
  flatten: FlattenOptions = {},
): ProcessedSchema {
  const key = cacheKey(provider, flatten);
  let perDef = cache.get(def);
  const hit = perDef?.get(key);
  if (hit) return hit;
  const out = computeSchema(def.inputSchema, provider, flatten);
  if (!perDef) cache.set(def, (perDef = new Map()));
  perDef.set(key, out);
  return out;
}

/**
 * Why the tool's schema keeps it out of the catalog, or undefined — the same answer as
 * `processToolSchema(…).excludedReason`, but without processing the schema when a cheap check
 * proves it adapts (schemaPrecheck.ts). A catalog build needs this for every tool, the processed
 * schema only for the tools whose schemas are read (README.md, Performance).
 */
export function schemaExclusion(
  def: Tool,
  provider: Provider,
  flatten: FlattenOptions = {},
): string | undefined {
  const hit = cache.get(def)?.get(cacheKey(provider, flatten));
  if (hit) return hit.excludedReason;
  if (schemaSurelyAdapts(def.inputSchema, provider)) return undefined;
  return processToolSchema(def, provider, flatten).excludedReason;
}

export function computeSchema(
  input: unknown,
  provider: Provider,
  flattenOpts: FlattenOptions = {},
): ProcessedSchema {
  const notes: string[] = [];
  try {
    const refs = resolveRefs(input);
    if (refs.truncated.length) notes.push(`recursive schema cut at ${refs.truncated.join(', ')}`);
    if (refs.unresolved.length) notes.push(`unresolved references: ${refs.unresolved.join(', ')}`);
    const flat = flattenSchema(refs.schema, flattenOpts);
    if (flat.flattened) notes.push(`flattened into ${flat.paths.length} dot-path parameters`);
    if (flat.note) notes.push(flat.note);
    const adapted = adaptSchemaForProvider(flat.schema, provider);
    if (!adapted.ok)
      return {
        serverSchema: refs.schema,
        modelSchema: undefined,
        flattened: flat.flattened,
        excludedReason: adapted.reason,
        notes,
      };
    notes.push(...adapted.changes);
    return { serverSchema: refs.schema, modelSchema: adapted.schema, flattened: flat.flattened, notes };
  } catch (err) {
    // Belt and braces: the transformers are property-tested not to throw, but a catalog of many
    // servers must survive one tool nobody anticipated.
    const reason = `its input schema could not be processed: ${err instanceof Error ? err.message : String(err)}`;
    return { serverSchema: input, modelSchema: undefined, flattened: false, excludedReason: reason, notes };
  }
}
