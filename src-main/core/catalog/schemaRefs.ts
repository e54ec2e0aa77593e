// Bounded `$ref` inlining (ARCHITECTURE.md, `catalog/`): model APIs take one self-contained schema, and a
// recursive schema must become a finite tree, never a hang or a stack overflow.
//
// Why hand-written rather than @apidevtools/json-schema-ref-parser: its `dereference()` turns a
// circular schema into a cyclic JS object graph (`circular: true`) or leaves the `$ref` in place
// (`circular: 'ignore'`); neither is a bounded tree we can serialise to a model, it has no node
// budget against exponential fan-out, and it would resolve external URLs and files, which a tool
// schema from an untrusted server must never make us fetch. Local refs are a small problem:
// a JSON pointer walk plus a stack of refs being expanded.

import { hasRefKeywords, isSchemaObject, mapSubschemas, type JsonSchema } from './schemaWalk';

export interface ResolveRefsOptions {
  /** Nested `$ref` expansions on one path before cutting (guards long non-circular chains). Default 8. */
  maxRefDepth?: number;
  /** Structural depth before cutting (guards the JS stack). Default 40. */
  maxDepth?: number;
  /** Total schema nodes produced before cutting (guards exponential fan-out). Default 20,000. */
  maxNodes?: number;
}

export interface ResolveRefsResult {
  schema: unknown;
  /** Refs (or paths) where the output was cut, for the catalog's notes. */
  truncated: string[];
  /** Refs that could not be resolved (missing target, external URL); replaced by an open schema. */
  unresolved: string[];
}

export const TRUNCATED_DESCRIPTION = '(recursive, truncated)';

function decodePointerToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Walk a local JSON pointer (`#/…`) from the root; undefined when any step is missing. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let token = raw;
    // Most pointers (`#/$defs/Name`) need no decoding; skipping it is a measurable share of a
    // 5,000-tool build (README.md, Performance).
    if (raw.includes('%') || raw.includes('~'))
      try {
        token = decodePointerToken(decodeURIComponent(raw));
      } catch {
        token = decodePointerToken(raw);
      }
    if (Array.isArray(cur)) cur = cur[Number(token)];
    else if (isSchemaObject(cur) && Object.prototype.hasOwnProperty.call(cur, token)) cur = cur[token];
    else return undefined;
  }
  return cur;
}

function cutSchema(target: unknown): JsonSchema {
  const type = isSchemaObject(target) && typeof target.type === 'string' ? target.type : 'object';
  return { type, description: TRUNCATED_DESCRIPTION };
}

/** Inline every local `$ref` of `schema`, bounded. Never throws on any JSON value. */
export function resolveRefs(schema: unknown, opts: ResolveRefsOptions = {}): ResolveRefsResult {
  // Fast path: most tool schemas have no refs at all (a build of 5,000 tools is mostly this).
  if (!hasRefKeywords(schema)) return { schema, truncated: [], unresolved: [] };
  const maxRefDepth = opts.maxRefDepth ?? 8;
  const maxDepth = opts.maxDepth ?? 40;
  const maxNodes = opts.maxNodes ?? 20_000;
  const truncated: string[] = [];
  const unresolved: string[] = [];
  let nodes = 0;

  const inline = (node: unknown, stack: readonly string[], depth: number): unknown => {
    if (!isSchemaObject(node)) return node; // booleans and malformed values pass through untouched
    nodes++;
    if (depth > maxDepth || nodes > maxNodes) {
      truncated.push(depth > maxDepth ? `depth>${maxDepth}` : `nodes>${maxNodes}`);
      return cutSchema(node);
    }
    let current: JsonSchema = node;
    let refStack = stack;
    // Resolve a chain of refs at this node (a ref to a ref is legal) before descending.
    for (;;) {
      const ref = current.$ref;
      const dyn = current.$dynamicRef ?? current.$recursiveRef;
      if (typeof ref !== 'string' && typeof dyn !== 'string') break;
      const { $ref: _r, $dynamicRef: _d, $recursiveRef: _rr, ...siblings } = current;
      if (typeof ref !== 'string') {
        // Dynamic refs point back into the schema being defined: treat them as the recursion cut.
        truncated.push(String(dyn));
        return { ...siblings, ...cutSchema(undefined) };
      }
      if (!ref.startsWith('#')) {
        unresolved.push(ref);
        return {
          ...siblings,
          description: siblingText(siblings, `(external reference ${ref} not resolved)`),
        };
      }
      const target = resolvePointer(schema, ref);
      if (target === undefined) {
        unresolved.push(ref);
        return { ...siblings, description: siblingText(siblings, `(reference ${ref} not found)`) };
      }
      if (refStack.includes(ref) || refStack.length >= maxRefDepth) {
        truncated.push(ref);
        return { ...cutSchema(target), ...withoutDefs(siblings), description: TRUNCATED_DESCRIPTION };
      }
      refStack = [...refStack, ref];
      if (!isSchemaObject(target)) return target; // `true`/`false` targets
      // Siblings of $ref apply alongside it (2019-09+); local ones win on conflicting annotations.
      current = { ...target, ...siblings };
    }
    return mapSubschemas(withoutDefs(current), (sub) => inline(sub, refStack, depth + 1));
  };

  const out = inline(schema, [], 0);
  return { schema: out, truncated: [...new Set(truncated)], unresolved: [...new Set(unresolved)] };
}

function siblingText(siblings: JsonSchema, note: string): string {
  return typeof siblings.description === 'string' ? `${siblings.description} ${note}` : note;
}

/** Definitions only exist for refs; once inlined they are dead weight in the prompt. */
function withoutDefs(s: JsonSchema): JsonSchema {
  if (!('$defs' in s) && !('definitions' in s)) return s;
  const { $defs: _a, definitions: _b, ...rest } = s;
  return rest;
}
