// fast-check generators of JSON Schemas for the catalog's property tests: nested objects, arrays,
// combinators and local $refs between definitions (which may be circular).
import fc from 'fast-check';

const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
const defNames = ['A', 'B', 'C', 'Node'];

export const leafSchema = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'integer' }),
  fc.constant({ type: 'number' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'array', items: { type: 'integer' } }),
  fc.constant({ type: 'string', enum: ['x', 'y'] }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constant({}),
  fc.constant(true),
);

const { schema } = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc.constantFrom(...defNames).map((n) => ({ $ref: `#/$defs/${n}` })),
    fc.record(
      { type: fc.constant('object'), properties: fc.dictionary(key, tie('schema'), { maxKeys: 5 }) },
      { requiredKeys: ['properties'] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('schema') }),
    fc.record({ anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }) }),
  ),
}));

/** A full tool input schema: an object with properties and $defs that may refer to each other. */
export const toolSchema = fc
  .record({
    properties: fc.dictionary(key, schema, { maxKeys: 6 }),
    defs: fc.record(
      Object.fromEntries(defNames.map((n) => [n, schema])) as Record<string, fc.Arbitrary<unknown>>,
    ),
    top: fc.constantFrom('object', undefined, 'anyOf'),
  })
  .map(({ properties, defs, top }) => {
    const base: Record<string, unknown> = { properties, $defs: defs };
    if (top === 'object') base.type = 'object';
    if (top === 'anyOf')
      base.anyOf = [{ type: 'object', properties: { k: { type: 'string' } } }, { type: 'object' }];
    return base;
  });

/** Purely nested object schemas (no refs, no combinators) for flatten round trips. */
const { nested } = fc.letrec<{ nested: unknown }>((tie) => ({
  nested: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    leafSchema.filter((s) => s !== true),
    fc.record({
      type: fc.constant('object'),
      properties: fc.dictionary(key, tie('nested'), { minKeys: 1, maxKeys: 5 }),
    }),
  ),
}));
export const nestedObjectSchema = fc
  .dictionary(key, nested, { minKeys: 1, maxKeys: 6 })
  .map((properties) => ({ type: 'object', properties }));

/** Arguments shaped by a nested schema (keys never contain dots), with some extra keys. */
export function argsFor(schema: unknown): fc.Arbitrary<unknown> {
  const s = schema as Record<string, unknown>;
  if (s && s.type === 'object' && s.properties && typeof s.properties === 'object') {
    const props = s.properties as Record<string, unknown>;
    const rec: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, sub] of Object.entries(props)) rec[k] = argsFor(sub);
    return fc.record(rec, { requiredKeys: [] });
  }
  return fc.oneof(
    fc.integer(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant({}),
    fc.array(fc.integer(), { maxLength: 3 }),
  );
}
