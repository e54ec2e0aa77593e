// Argument repair before forwarding (ARCHITECTURE.md, `catalog/`): models send "5" for 5, "true" for true,
// a JSON string for an object, a scalar where a list belongs. Each fix is recorded so the agent
// can log it; a value that cannot be corrected is left alone, so the server's own validation error
// goes back to the model.

import { isSchemaObject, schemaTypes, type JsonSchema } from './schemaWalk';

/** Argument keys the host may use for its own bookkeeping; they never reach a server. */
export const INTERNAL_ARG_PREFIX = '_mooring';

export type FixKind =
  | 'string→integer'
  | 'string→number'
  | 'string→boolean'
  | 'json-string→array'
  | 'json-string→object'
  | 'scalar→array'
  | 'dot-path→nested'
  | 'internal-field-removed';

export interface ArgFix {
  /** Where, as a dot/bracket path (`filters.limit`, `ids[0]`). */
  path: string;
  kind: FixKind;
}

export function formatFix(f: ArgFix): string {
  return `${f.path}: ${f.kind}`;
}

const MAX_COERCE_DEPTH = 64;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function matches(v: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isPlainObject(v);
    case 'null':
      return v === null;
    default:
      return false;
  }
}

/** The types a schema admits, looking through one level of anyOf/oneOf. */
function admittedTypes(s: unknown): string[] {
  const own = schemaTypes(s);
  if (own.length || !isSchemaObject(s)) return own;
  const alts = [...(Array.isArray(s.anyOf) ? s.anyOf : []), ...(Array.isArray(s.oneOf) ? s.oneOf : [])];
  return [...new Set(alts.flatMap((a) => schemaTypes(a)))];
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** One conversion toward `type`, or undefined when there is no safe one. */
function convert(v: unknown, type: string): { value: unknown; kind: FixKind } | undefined {
  if (typeof v === 'string') {
    const t = v.trim();
    if (type === 'integer' && /^[-+]?\d+$/.test(t) && Number.isSafeInteger(Number(t)))
      return { value: Number(t), kind: 'string→integer' };
    if (type === 'number' && t !== '' && Number.isFinite(Number(t)))
      return { value: Number(t), kind: 'string→number' };
    if (type === 'boolean' && /^(true|false)$/i.test(t))
      return { value: t.toLowerCase() === 'true', kind: 'string→boolean' };
    if (type === 'array' && t.startsWith('[')) {
      const p = parseJson(t);
      if (Array.isArray(p)) return { value: p, kind: 'json-string→array' };
    }
    if (type === 'object' && t.startsWith('{')) {
      const p = parseJson(t);
      if (isPlainObject(p)) return { value: p, kind: 'json-string→object' };
    }
  }
  if (type === 'array' && v !== null && v !== undefined && !Array.isArray(v))
    return { value: [v], kind: 'scalar→array' };
  return undefined;
}

function coerce(v: unknown, s: unknown, path: string, fixes: ArgFix[], depth: number): unknown {
  if (depth > MAX_COERCE_DEPTH || !isSchemaObject(s)) return v;
  const types = admittedTypes(s);
  let value = v;
  if (types.length && !types.some((t) => matches(v, t))) {
    // Prefer the narrowest conversion the schema allows (integer before number, and so on).
    const order = ['integer', 'number', 'boolean', 'object', 'array'].filter((t) => types.includes(t));
    for (const t of order) {
      const c = convert(v, t);
      if (c) {
        fixes.push({ path: path || '(root)', kind: c.kind });
        value = c.value;
        break;
      }
    }
  }
  if (Array.isArray(value)) return coerceItems(value, s, path, fixes, depth);
  if (isPlainObject(value)) return coerceProps(value, s, path, fixes, depth);
  return value;
}

function coerceItems(arr: unknown[], s: JsonSchema, path: string, fixes: ArgFix[], depth: number): unknown[] {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = isSchemaObject(s.items) ? s.items : undefined;
  return arr.map((item, i) =>
    coerce(item, i < prefix.length ? prefix[i] : rest, `${path}[${i}]`, fixes, depth + 1),
  );
}

function coerceProps(
  obj: Record<string, unknown>,
  s: JsonSchema,
  path: string,
  fixes: ArgFix[],
  depth: number,
) {
  const props = isSchemaObject(s.properties) ? s.properties : {};
  const extra = isSchemaObject(s.additionalProperties) ? s.additionalProperties : undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    const sub = Object.prototype.hasOwnProperty.call(props, k) ? props[k] : extra;
    out[k] = coerce(v, sub, path ? `${path}.${k}` : k, fixes, depth + 1);
  }
  return out;
}

/** Coerce `args` toward `schema` (the server's own schema, refs resolved). Never throws; never mutates. */
export function coerceArgs(
  args: Record<string, unknown>,
  schema: unknown,
): { args: Record<string, unknown>; fixes: ArgFix[] } {
  const fixes: ArgFix[] = [];
  const out = coerce(args, asObjectSchema(schema), '', fixes, 0);
  return { args: isPlainObject(out) ? out : args, fixes };
}

const objectSchemas = new WeakMap<object, JsonSchema>();
/** The schema read as an object schema at the root: one copy per schema, not one per call. */
function asObjectSchema(schema: unknown): unknown {
  if (!isSchemaObject(schema)) return schema;
  let root = objectSchemas.get(schema);
  if (!root) objectSchemas.set(schema, (root = { ...schema, type: 'object' }));
  return root;
}

/** Remove host-internal keys (`_mooring…`) at every level, so none reaches a server. */
export function stripInternal(args: Record<string, unknown>): {
  args: Record<string, unknown>;
  fixes: ArgFix[];
} {
  const fixes: ArgFix[] = [];
  const walk = (v: unknown, path: string, depth: number): unknown => {
    if (depth > MAX_COERCE_DEPTH) return v;
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`, depth + 1));
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = path ? `${path}.${k}` : k;
      if (k.startsWith(INTERNAL_ARG_PREFIX)) fixes.push({ path: p, kind: 'internal-field-removed' });
      else out[k] = walk(x, p, depth + 1);
    }
    return out;
  };
  return { args: walk(args, '', 0) as Record<string, unknown>, fixes };
}
