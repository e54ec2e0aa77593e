// Keyword-aware traversal of JSON Schema (draft-07 and 2020-12). Schema transformers must know
// which keywords hold subschemas: a property literally named "enum" or "$ref" is a schema, while the
// value of `enum`, `const`, `default` or `examples` is data and must never be rewritten.

export type JsonSchema = { [key: string]: unknown };

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value is a map of name → subschema. */
const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
] as const;

export function isSchemaObject(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type KeywordKind = 'schema' | 'items' | 'array' | 'map' | 'dependencies';
/** One lookup per key: a schema node usually has 2–5 keys, far fewer than the keyword lists. */
const KEYWORD_KIND = new Map<string, KeywordKind>([
  ...SCHEMA_KEYWORDS.map((k) => [k, 'schema'] as const),
  ...SCHEMA_ARRAY_KEYWORDS.map((k) => [k, 'array'] as const),
  ...SCHEMA_MAP_KEYWORDS.map((k) => [k, 'map'] as const),
  ['items', 'items'],
  ['dependencies', 'dependencies'],
]);

/**
 * A shallow copy of `node` with every direct subschema replaced by `fn(sub, keywordPath)`.
 * Boolean subschemas are passed through `fn` too (they are valid schemas).
 */
export function mapSubschemas(node: JsonSchema, fn: (sub: unknown, at: string) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const k in node) {
    if (!Object.prototype.hasOwnProperty.call(node, k)) continue;
    const v = node[k];
    switch (KEYWORD_KIND.get(k)) {
      case 'schema':
        out[k] = fn(v, k);
        break;
      case 'items':
        out[k] = Array.isArray(v) ? v.map((s, i) => fn(s, `items/${i}`)) : fn(v, 'items');
        break;
      case 'array':
        out[k] = Array.isArray(v) ? v.map((s, i) => fn(s, `${k}/${i}`)) : v;
        break;
      case 'map':
      case 'dependencies':
        if (isSchemaObject(v)) {
          const m: JsonSchema = {};
          // draft-07 `dependencies`: a value is a schema or an array of property names (data).
          for (const name in v)
            if (Object.prototype.hasOwnProperty.call(v, name))
              m[name] =
                Array.isArray(v[name]) && k === 'dependencies' ? v[name] : fn(v[name], `${k}/${name}`);
          out[k] = m;
        } else out[k] = v;
        break;
      default:
        out[k] = v;
    }
  }
  return out;
}

/** True when a schema holds any `$ref`-like keyword or definitions (so ref inlining has work to do). */
export function hasRefKeywords(node: unknown, depth = 0): boolean {
  if (depth > 40) return true; // let the bounded inliner cut it
  if (Array.isArray(node)) return node.some((x) => hasRefKeywords(x, depth + 1));
  if (!isSchemaObject(node)) return false;
  for (const k in node) {
    if (k === '$ref' || k === '$defs' || k === 'definitions' || k === '$dynamicRef' || k === '$recursiveRef')
      return true;
    const v = node[k];
    if (typeof v === 'object' && v !== null && hasRefKeywords(v, depth + 1)) return true;
  }
  return false;
}

/** The JSON types a schema allows, from `type` (string or array); empty when it does not say. */
export function schemaTypes(schema: unknown): string[] {
  if (!isSchemaObject(schema)) return [];
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  if (isSchemaObject(schema.properties)) return ['object'];
  return [];
}
