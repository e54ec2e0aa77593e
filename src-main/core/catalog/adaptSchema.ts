// Per-provider schema adaptation (ARCHITECTURE.md, "The core, by room": catalog/). OpenAI and Anthropic both require the
// top-level parameters schema to be `type: "object"` and reject `oneOf`/`anyOf`/`allOf`/`enum`/`not`
// at the top level; Ollama reads only `type`/`properties`/`required` there. Anthropic additionally
// requires property keys to match ^[a-zA-Z0-9_.-]{1,64}$. A tool we cannot adapt is excluded with
// a reason the UI shows; this function never throws, so one odd tool cannot break the catalog.

import type { ProviderId } from '@shared/providers';
import { isSchemaObject, schemaTypes, type JsonSchema } from './schemaWalk';

/** The providers whose schema rules the catalog follows (shared/providers.ts). */
export type Provider = ProviderId;

/**
 * A property name for a reason the UI and the terminal show: a dot path flattened from a very deep schema
 * can run to thousands of characters, so a long one shows its ends and its length.
 */
function shownKey(key: string): string {
  return key.length <= 80
    ? JSON.stringify(key)
    : `${JSON.stringify(`${key.slice(0, 40)}…${key.slice(-20)}`)} (${key.length} characters: a dot path through ${key.split('.').length} nested objects)`;
}

export type AdaptResult = { ok: true; schema: JsonSchema; changes: string[] } | { ok: false; reason: string };

const ANTHROPIC_PROPERTY_KEY = /^[a-zA-Z0-9_.-]{1,64}$/;
/** Keywords no provider wants at the top level of a parameters schema. */
const TOP_LEVEL_DROPPED = [
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  'enum',
  'const',
  'not',
  'if',
  'then',
  'else',
];

function isObjectLike(s: unknown): s is JsonSchema {
  if (!isSchemaObject(s)) return false;
  const types = schemaTypes(s);
  return types.length === 0 ? !('anyOf' in s || 'oneOf' in s || 'allOf' in s) : types.includes('object');
}

function requiredOf(s: JsonSchema): string[] {
  return Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : [];
}

function propsOf(s: JsonSchema): JsonSchema {
  return isSchemaObject(s.properties) ? s.properties : {};
}

/** Merge object alternatives into one object. `all`: allOf semantics (required = union). */
function mergeObjects(branches: JsonSchema[], all: boolean): { properties: JsonSchema; required: string[] } {
  const properties: JsonSchema = {};
  for (const b of branches)
    for (const [k, v] of Object.entries(propsOf(b))) if (!(k in properties)) properties[k] = v;
  const reqSets = branches.map((b) => new Set(requiredOf(b)));
  const required = all
    ? [...new Set(reqSets.flatMap((r) => [...r]))]
    : [...(reqSets[0] ?? new Set<string>())].filter((k) => reqSets.every((r) => r.has(k)));
  return { properties, required };
}

function describeAlternatives(branches: JsonSchema[]): string {
  const shapes = branches.map((b, i) => {
    const req = requiredOf(b);
    const title = typeof b.title === 'string' ? b.title : `option ${i + 1}`;
    return req.length ? `${title} (requires ${req.join(', ')})` : title;
  });
  return `Provide exactly one of these shapes: ${shapes.join('; ')}.`;
}

export function adaptSchemaForProvider(input: unknown, provider: Provider): AdaptResult {
  const changes: string[] = [];
  if (input === false)
    return { ok: false, reason: 'the input schema is `false`: it accepts no arguments at all' };
  if (!isSchemaObject(input)) {
    changes.push('missing input schema replaced by an empty object schema');
    return { ok: true, schema: { type: 'object', properties: {} }, changes };
  }
  let s: JsonSchema = { ...input };
  for (const k of TOP_LEVEL_DROPPED)
    if (k in s) {
      delete s[k];
      if (!k.startsWith('$')) changes.push(`top-level "${k}" removed`);
    }

  for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = s[comb];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.length === 0) {
      delete s[comb];
      continue;
    }
    if (!v.every(isObjectLike))
      return {
        ok: false,
        reason: `top-level "${comb}" has alternatives that are not objects; no provider accepts that`,
      };
    const branches = v as JsonSchema[];
    const merged = mergeObjects(
      [{ properties: propsOf(s), required: requiredOf(s) }, ...branches],
      comb === 'allOf',
    );
    if (comb !== 'allOf') {
      // anyOf/oneOf: what every alternative requires, plus what the top level itself requires.
      const alt = mergeObjects(branches, false);
      merged.required = [...new Set([...requiredOf(s), ...alt.required])];
      const note = describeAlternatives(branches);
      s.description = typeof s.description === 'string' ? `${s.description}\n${note}` : note;
    }
    delete s[comb];
    s = {
      ...s,
      properties: merged.properties,
      ...(merged.required.length ? { required: merged.required } : {}),
    };
    changes.push(`top-level "${comb}" merged into one object`);
  }

  // Look at `type` itself: schemaTypes() would infer "object" from `properties`.
  const types = schemaTypes({ type: s.type });
  if (types.length === 0) {
    s.type = 'object';
    changes.push('missing top-level type set to "object"');
  } else if (types.length > 1 || types[0] !== 'object') {
    if (!types.includes('object'))
      return {
        ok: false,
        reason: `top-level type is ${JSON.stringify(s.type)}, but tool parameters must be an object`,
      };
    s.type = 'object';
    changes.push(`top-level type ${JSON.stringify(types)} narrowed to "object"`);
  }
  if (!isSchemaObject(s.properties)) {
    s.properties = {};
    if (provider !== 'anthropic') changes.push('empty "properties" added');
  }
  if ('required' in s && !Array.isArray(s.required)) delete s.required;

  if (provider === 'anthropic') {
    const bad = Object.keys(s.properties as JsonSchema).filter((k) => !ANTHROPIC_PROPERTY_KEY.test(k));
    if (bad.length)
      return {
        ok: false,
        reason: `property name${bad.length > 1 ? 's' : ''} ${bad.map(shownKey).join(', ')} not accepted by Anthropic (letters, digits, "_", ".", "-", at most 64)`,
      };
  }
  return { ok: true, schema: s, changes };
}
