// Dot-path flattening (ARCHITECTURE.md, `catalog/`): models fill deep or wide nested objects badly, and do
// much better with one flat level of `a.b.c` parameters. The reverse (`unflattenArgs`) runs on
// every call, so a model that sends `{"a.b": 1}` on its own also reaches the server as `{"a":{"b":1}}`.

import { isSchemaObject, schemaTypes, type JsonSchema } from './schemaWalk';

export interface FlattenOptions {
  /** Flatten when object nesting is deeper than this. Default 2. */
  maxDepth?: number;
  /** Flatten when there are more leaf parameters than this. Default 10. */
  maxLeaves?: number;
}

export interface FlattenResult {
  schema: unknown;
  flattened: boolean;
  /** The dot paths of the flat schema's parameters (empty when not flattened). */
  paths: string[];
  /** Why a schema that qualified was left nested, if it was. */
  note?: string;
}

/** Keys that would let a dot path write into Object.prototype. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** An object schema we can descend into: a plain object with named properties and no combinators. */
function isNestedObject(s: unknown): s is JsonSchema & { properties: JsonSchema } {
  if (!isSchemaObject(s) || !isSchemaObject(s.properties) || Object.keys(s.properties).length === 0)
    return false;
  const types = schemaTypes(s);
  if (types.length !== 1 || types[0] !== 'object') return false;
  return !('anyOf' in s || 'oneOf' in s || 'allOf' in s || '$ref' in s || 'patternProperties' in s);
}

interface Shape {
  depth: number;
  leaves: number;
  dotted: boolean;
}

function shape(s: unknown, level: number, budget: { n: number }): Shape {
  if (!isNestedObject(s)) return { depth: level - 1, leaves: 1, dotted: false };
  const acc: Shape = { depth: level, leaves: 0, dotted: false };
  for (const [k, sub] of Object.entries(s.properties)) {
    if (--budget.n < 0) break;
    if (k.includes('.') || k === '' || FORBIDDEN_SEGMENTS.has(k)) acc.dotted = true;
    const r = shape(sub, level + 1, budget);
    acc.depth = Math.max(acc.depth, r.depth);
    acc.leaves += r.leaves;
    acc.dotted ||= r.dotted;
  }
  return acc;
}

/** Object nesting depth (a flat object of scalars is 1) and leaf count of a schema. */
export function schemaShape(schema: unknown): { depth: number; leaves: number } {
  const r = shape(schema, 1, { n: 100_000 });
  return { depth: Math.max(r.depth, 0), leaves: r.leaves };
}

export function flattenSchema(schema: unknown, opts: FlattenOptions = {}): FlattenResult {
  const maxDepth = opts.maxDepth ?? 2;
  const maxLeaves = opts.maxLeaves ?? 10;
  if (!isNestedObject(schema)) return { schema, flattened: false, paths: [] };
  const sh = shape(schema, 1, { n: 100_000 });
  if (sh.depth <= maxDepth && sh.leaves <= maxLeaves) return { schema, flattened: false, paths: [] };
  if (sh.dotted)
    return {
      schema,
      flattened: false,
      paths: [],
      note: 'left nested: a property name contains "." or is reserved',
    };

  const properties: JsonSchema = {};
  const required: string[] = [];
  const walk = (s: JsonSchema & { properties: JsonSchema }, prefix: string, allRequired: boolean): void => {
    const req = new Set(Array.isArray(s.required) ? s.required.filter((x) => typeof x === 'string') : []);
    for (const [k, sub] of Object.entries(s.properties)) {
      const path = prefix ? `${prefix}.${k}` : k;
      const isReq = allRequired && req.has(k);
      if (isNestedObject(sub)) walk(sub, path, isReq);
      else {
        properties[path] = sub;
        if (isReq) required.push(path);
      }
    }
  };
  walk(schema, '', true);
  const { properties: _p, required: _r, ...rest } = schema;
  const flat: JsonSchema = { ...rest, type: 'object', properties };
  if (required.length) flat.required = required;
  return { schema: flat, flattened: true, paths: Object.keys(properties) };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Nested arguments as dot-path arguments, following the nested schema (the inverse of
 * `unflattenArgs` for arguments whose keys hold no dots). Empty objects stay as values so the
 * round trip keeps them.
 */
export function flattenArgs(args: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (obj: Record<string, unknown>, s: unknown, prefix: string): void => {
    for (const [k, v] of Object.entries(obj)) {
      const path = prefix ? `${prefix}.${k}` : k;
      const sub = isNestedObject(s) ? s.properties[k] : undefined;
      if (isNestedObject(sub) && isPlainObject(v) && Object.keys(v).length > 0) walk(v, sub, path);
      else out[path] = v;
    }
  };
  walk(args, schema, '');
  return out;
}

export interface UnflattenResult {
  args: Record<string, unknown>;
  /** Dot-path keys that were expanded into nested objects. */
  expanded: string[];
}

/**
 * Expand dot-path keys into nested objects. A key is kept literally when the schema declares it
 * as a property (pass the server's nested schema, not the flat one), when a segment is empty or reserved, or when it would overwrite a non-object value.
 */
export function unflattenArgs(args: Record<string, unknown>, schema?: unknown): UnflattenResult {
  const literal = isSchemaObject(schema) && isSchemaObject(schema.properties) ? schema.properties : {};
  const out: Record<string, unknown> = {};
  const dotted: [string, unknown][] = [];
  for (const [k, v] of Object.entries(args)) {
    if (k.includes('.') && !Object.prototype.hasOwnProperty.call(literal, k)) dotted.push([k, v]);
    else out[k] = v;
  }
  const expanded: string[] = [];
  const copied = new Set<object>();
  for (const [key, value] of dotted) {
    const segs = key.split('.');
    if (segs.some((s) => s === '' || FORBIDDEN_SEGMENTS.has(s)) || !canSet(out, segs)) {
      out[key] = value;
      continue;
    }
    let cur = out;
    for (const seg of segs.slice(0, -1)) {
      const next = cur[seg];
      // Copy objects we descend into once, so the caller's arguments are never mutated.
      const obj = isPlainObject(next) ? (copied.has(next) ? next : { ...next }) : {};
      copied.add(obj);
      cur[seg] = obj;
      cur = obj;
    }
    cur[segs[segs.length - 1]!] = value;
    expanded.push(key);
  }
  return { args: out, expanded };
}

function canSet(root: Record<string, unknown>, segs: string[]): boolean {
  let cur: unknown = root;
  for (let i = 0; i < segs.length; i++) {
    if (!isPlainObject(cur)) return false;
    const next: unknown = cur[segs[i]!];
    if (i === segs.length - 1) return next === undefined;
    if (next === undefined) return true; // the rest of the path is created fresh
    if (!isPlainObject(next)) return false;
    cur = next;
  }
  return true;
}
