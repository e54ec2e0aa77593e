// The build-time exclusion check must never call a schema fine that the full pipeline
// would exclude: `schemaSurelyAdapts` true ⇒ `computeSchema` gives no excludedReason, for every
// provider and any flatten options. It may say "don't know" (false) too often, never wrongly "fine".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS as PROVIDERS } from '@shared/providers';
import { toolSchema } from '../../../test/helpers/schemaArbitraries';
import { computeSchema } from './schemaPipeline';
import { schemaSurelyAdapts } from './schemaPrecheck';

// Names long enough that some flattened dot paths cross Anthropic's 64 characters and some don't,
// plus names Anthropic refuses outright.
const name = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/) },
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{12,30}$/) },
  { weight: 1, arbitrary: fc.constantFrom('file path', 'a.b', '', 'x'.repeat(65), '$ref', '__proto__') },
);
const defNames = ['A', 'B'];
const { node } = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    fc.constantFrom({ type: 'string' }, { type: 'integer' }, {}, true),
    fc.constantFrom(...defNames).map((n) => ({ $ref: `#/$defs/${n}` })),
    fc.record({ type: fc.constant('object'), properties: fc.dictionary(name, tie('node'), { maxKeys: 4 }) }),
    fc.record({
      $ref: fc.constantFrom(...defNames.map((n) => `#/$defs/${n}`)),
      properties: fc.dictionary(name, tie('node'), { maxKeys: 2 }),
    }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
  ),
}));
const rootType = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(undefined, 'object', ['object', 'null']) },
  { weight: 1, arbitrary: fc.constantFrom('string', ['string', 'null'], 7) },
);
const wideSchema = fc
  .record({
    properties: fc.dictionary(name, node, { maxKeys: 5 }),
    defs: fc.record({ A: node, B: node }),
    type: rootType,
    rootRef: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, fc.constant('#/$defs/A')),
    oneOf: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      fc.constantFrom([{ type: 'object' }], [{ type: 'string' }]),
    ),
  })
  .map(({ properties, defs, type, rootRef, oneOf }) => {
    const s: Record<string, unknown> = { properties, $defs: defs };
    if (type !== undefined) s.type = type;
    if (rootRef) s.$ref = rootRef;
    if (oneOf) s.oneOf = oneOf;
    return s;
  });
const flattenOpts = fc.record({
  maxDepth: fc.integer({ min: 0, max: 3 }),
  maxLeaves: fc.integer({ min: 0, max: 12 }),
});

describe('schemaSurelyAdapts (property)', () => {
  it('never calls a schema fine that the full pipeline excludes, and proves most ordinary ones', () => {
    let fine = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.oneof({ weight: 4, arbitrary: wideSchema }, toolSchema, fc.jsonValue()),
        fc.constantFrom(...PROVIDERS),
        fc.option(flattenOpts, { nil: undefined }),
        (schema, provider, flatten) => {
          runs++;
          if (!schemaSurelyAdapts(schema, provider)) return;
          fine++;
          expect(computeSchema(schema, provider, flatten).excludedReason).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
    // Not a check that always says "don't know": it must spare the full pipeline for many schemas.
    expect(fine / runs).toBeGreaterThan(0.3);
  });
});

describe('schemaSurelyAdapts (cases)', () => {
  const longName = 'a'.repeat(40);
  const viaRef = {
    type: 'object',
    $defs: { Inner: { type: 'object', properties: { [longName]: { type: 'string' } } } },
    properties: { outer_settings: { $ref: '#/$defs/Inner' }, other: { type: 'string' } },
  };

  it('proves the usual shape: nested objects and $refs to definitions', () => {
    const s = {
      type: 'object',
      $defs: { Page: { type: 'object', properties: { cursor: { type: 'string' } } } },
      properties: {
        id: { type: 'string' },
        page: { $ref: '#/$defs/Page' },
        filters: { type: 'array', items: { $ref: '#/$defs/Page' } },
        options: { type: 'object', properties: { notify: { type: 'object', properties: { to: {} } } } },
      },
    };
    for (const p of PROVIDERS) expect(schemaSurelyAdapts(s, p)).toBe(true);
    expect(schemaSurelyAdapts(undefined, 'anthropic')).toBe(true); // replaced by an empty object
  });

  it('follows $refs: a flattened path through a definition can be too long for Anthropic', () => {
    // outer_settings.aaaa… is 55 characters: fine. Nested one level deeper it is 76: not.
    expect(schemaSurelyAdapts(viaRef, 'anthropic')).toBe(true);
    const deeper = {
      ...viaRef,
      properties: {
        ...viaRef.properties,
        wrapping_layer: { type: 'object', properties: { more_words: viaRef.properties.outer_settings } },
      },
    };
    expect(schemaSurelyAdapts(deeper, 'anthropic')).toBe(false);
    expect(computeSchema(deeper, 'anthropic', { maxDepth: 1 }).excludedReason).toMatch(
      /not accepted by Anthropic/,
    );
    expect(schemaSurelyAdapts(deeper, 'openai')).toBe(true);
  });

  it('leaves to the full pipeline what it cannot prove', () => {
    const cases: unknown[] = [
      false,
      { type: 'string' },
      { $ref: '#/$defs/A', $defs: { A: { type: 'object' } } },
      { oneOf: [{ type: 'object' }] },
      { type: 'object', properties: { 'file path': { type: 'string' } } },
      { type: 'object', properties: { 'a.b': { type: 'string' } } },
      // Recursive: the path length has no bound, so it cannot be proved.
      {
        $defs: { N: { type: 'object', properties: { next: { $ref: '#/$defs/N' } } } },
        properties: { n: { $ref: '#/$defs/N' } },
      },
    ];
    for (const s of cases) expect(schemaSurelyAdapts(s, 'anthropic')).toBe(false);
  });
});
