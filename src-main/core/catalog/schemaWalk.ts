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

/**
 * A shallow copy of `node` with every direct subschema replaced by `fn(sub, keywordPath)`.
 * Boolean subschemas are passed through `fn` too (they are valid schemas).
 */
export function mapSubschemas(node: JsonSchema, fn: (sub: unknown, at: string) => unknown): JsonSchema {
  const out: JsonSchema = { ...node };
  for (const k of SCHEMA_KEYWORDS) if (k in node) out[k] = fn(node[k], k);
  if ('items' in node) {
    const items = node.items;
    out.items = Array.isArray(items) ? items.map((s, i) => fn(s, `items/${i}`)) : fn(items, 'items');
  }
  for (const k of SCHEMA_ARRAY_KEYWORDS) {
    const v = node[k];
    if (Array.isArray(v)) out[k] = v.map((s, i) => fn(s, `${k}/${i}`));
  }
  for (const k of SCHEMA_MAP_KEYWORDS) {
    const v = node[k];
    if (isSchemaObject(v)) {
      const m: JsonSchema = {};
      for (const [name, s] of Object.entries(v)) m[name] = fn(s, `${k}/${name}`);
      out[k] = m;
    }
  }
  // draft-07 `dependencies`: each value is a schema or an array of property names (data).
  if (isSchemaObject(node.dependencies)) {
    const m: JsonSchema = {};
    for (const [name, s] of Object.entries(node.dependencies))
      m[name] = Array.isArray(s) ? s : fn(s, `dependencies/${name}`);
    out.dependencies = m;
  }
  return out;
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
