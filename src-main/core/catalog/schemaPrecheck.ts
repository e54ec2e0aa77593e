// A cheap, exact "this schema will adapt" check (README.md, Performance: a 5,000-tool catalog in ≤ 50 ms).
// Whether a tool is enabled depends on whether its schema can be adapted for the provider
// (adaptSchema.ts), but computing the full model-facing schema (refs inlined, flattened, copied)
// for every tool costs most of a catalog build, and in deferred mode almost none are ever sent.
// This check proves "no exclusion" from the raw schema without building anything; when it cannot
// prove it, it says so and the caller runs the full pipeline (schemaPipeline.ts), which then
// decides. So it may say "don't know" too often, never "fine" wrongly — property-tested in
// schemaPrecheck.test.ts against computeSchema.
//
// Why it is sound, per exclusion in adaptSchemaForProvider (applied to flatten(resolveRefs(s))):
// - `false` → excluded: only a `false` input resolves to `false`.
// - a non-object input is replaced by an empty object schema: fine.
// - top-level combinators and the top-level type: with no `$ref`-like keyword and no combinator at
//   the root, resolution keeps the root's own `type` and adds no combinator; flattening only ever
//   sets `type: "object"`. So the root's own `type` decides.
// - Anthropic's property-name rule: the model-facing property names are either the root's own
//   property names or, when flattened, dot paths of property names along nested `properties`
//   (through `$ref` targets and their siblings). If every name on every such path is plain
//   (`[A-Za-z0-9_-]+`) and the longest path fits in 64 characters, every name passes.
//   A recursive path cannot be bounded this way: then it answers "don't know".

import type { Provider } from './adaptSchema';
import { resolvePointer } from './schemaRefs';
import { isSchemaObject, schemaTypes, type JsonSchema } from './schemaWalk';

/** Anthropic: ^[a-zA-Z0-9_.-]{1,64}$ per name (adaptSchema.ts); dots only come from flattening here. */
const MAX_PROPERTY_NAME = 64;
const PLAIN_NAME = /^[A-Za-z0-9_-]+$/;
const ROOT_KEYWORDS_NEEDING_WORK = ['$ref', '$dynamicRef', '$recursiveRef', 'allOf', 'anyOf', 'oneOf'];
/** Deeper than the ref inliner's own structural cut (schemaRefs.ts, 40): not worth proving. */
const MAX_WALK_DEPTH = 40;

/** Thrown inside the walk to give up at once (a recursive path, an odd name, too long, too deep). */
const UNKNOWN = Symbol('unknown');

/**
 * True only when `computeSchema(schema, provider, anyFlattenOptions)` is certain to adapt the
 * schema without excluding the tool. False means "run the full pipeline to find out".
 */
export function schemaSurelyAdapts(schema: unknown, provider: Provider): boolean {
  if (!isSchemaObject(schema)) return schema !== false;
  for (const k of ROOT_KEYWORDS_NEEDING_WORK) if (k in schema) return false;
  const types = schemaTypes({ type: schema.type });
  if (types.length > 0 && !types.includes('object')) return false;
  if (provider !== 'anthropic') return true;
  try {
    longestPath(schema, { root: schema, refs: [], memo: undefined }, 0);
    return true;
  } catch {
    return false; // UNKNOWN, or anything odd: the full pipeline decides (and never throws)
  }
}

interface Walk {
  root: JsonSchema;
  /** Refs being followed on the current path: meeting one again means recursion. */
  refs: string[];
  /** Longest path below each ref already walked (shared definitions are walked once). */
  memo: Map<string, number> | undefined;
}

/**
 * The longest dot path (in characters) that flattening could build from `node`'s properties,
 * following `$ref` targets as the inliner does. Throws UNKNOWN as soon as a path could be too
 * long or a name is not plain. Allocates nothing on the common path: this runs for every tool.
 */
function longestPath(node: unknown, w: Walk, depth: number): number {
  if (!isSchemaObject(node)) return 0;
  if (depth > MAX_WALK_DEPTH) throw UNKNOWN;
  let best = 0;
  const props = node.properties;
  if (isSchemaObject(props))
    for (const name in props) {
      if (!Object.hasOwn(props, name)) continue;
      if (!PLAIN_NAME.test(name)) throw UNKNOWN;
      const below = longestPath(props[name], w, depth + 1);
      const len = below > 0 ? name.length + 1 + below : name.length;
      if (len > MAX_PROPERTY_NAME) throw UNKNOWN;
      if (len > best) best = len;
    }
  // Sibling keywords beside a $ref merge over its target, so a path may come from either.
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const below = refLongest(ref, w, depth);
    if (below > best) best = below;
  }
  return best;
}

function refLongest(ref: string, w: Walk, depth: number): number {
  const known = w.memo?.get(ref);
  if (known !== undefined) return known;
  if (w.refs.includes(ref)) throw UNKNOWN;
  const target = resolvePointer(w.root, ref); // undefined: external or missing, left as is
  w.refs.push(ref);
  const n = target === undefined ? 0 : longestPath(target, w, depth + 1);
  w.refs.pop();
  (w.memo ??= new Map()).set(ref, n);
  return n;
}
