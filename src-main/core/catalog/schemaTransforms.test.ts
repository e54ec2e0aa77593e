// Property tests: every schema transformer terminates and never throws on
// valid JSON Schema (nor on arbitrary JSON), and flatten-then-unflatten of arguments is identity.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS as PROVIDERS } from '@shared/providers';
import { adaptSchemaForProvider } from './adaptSchema';
import { coerceArgs, stripInternal } from './argRepair';
import { flattenArgs, flattenSchema, schemaShape, unflattenArgs } from './schemaFlatten';
import { computeSchema } from './schemaPipeline';
import { resolveRefs, TRUNCATED_DESCRIPTION } from './schemaRefs';
import { argsFor, nestedObjectSchema, toolSchema } from '../../../test/helpers/schemaArbitraries';

function hasRef(v: unknown): boolean {
  return JSON.stringify(v).includes('"$ref"');
}

describe('schema transformers (property)', () => {
  it('resolveRefs terminates, inlines every local ref, and leaves a finite tree', () => {
    fc.assert(
      fc.property(toolSchema, (schema) => {
        const r = resolveRefs(schema);
        // JSON.stringify would throw on a cycle and this test would hang on an unbounded expansion.
        const text = JSON.stringify(r.schema);
        expect(hasRef(r.schema)).toBe(false);
        expect(text).not.toContain('$defs');
        expect(text.length).toBeLessThan(5_000_000);
      }),
      { numRuns: 300 },
    );
  });

  it('the whole pipeline never throws, for every provider, on generated schemas and on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.oneof(toolSchema, fc.jsonValue()), fc.constantFrom(...PROVIDERS), (schema, provider) => {
        const out = computeSchema(schema, provider);
        if (out.modelSchema) {
          expect(out.modelSchema.type).toBe('object');
          for (const k of ['anyOf', 'oneOf', 'allOf']) expect(out.modelSchema).not.toHaveProperty(k);
          JSON.stringify(out.modelSchema);
        } else expect(out.excludedReason).toBeTruthy();
      }),
      { numRuns: 400 },
    );
  });

  it('coerceArgs, stripInternal and unflattenArgs never throw on arbitrary arguments', () => {
    fc.assert(
      fc.property(toolSchema, fc.dictionary(fc.string(), fc.jsonValue()), (schema, args) => {
        const resolved = resolveRefs(schema).schema;
        unflattenArgs(args, resolved);
        stripInternal(args);
        coerceArgs(args, resolved);
      }),
      { numRuns: 300 },
    );
  });

  it('flatten then unflatten of arguments is identity', () => {
    fc.assert(
      fc.property(
        nestedObjectSchema.chain((schema) => fc.tuple(fc.constant(schema), argsFor(schema))),
        ([schema, args]) => {
          const flatArgs = flattenArgs(args as Record<string, unknown>, schema);
          // unflatten takes the server's nested schema: only its own dotted keys are literal.
          const back = unflattenArgs(flatArgs, schema).args;
          expect(back).toEqual(args);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('flattenSchema keeps every leaf as exactly one dot path', () => {
    fc.assert(
      fc.property(nestedObjectSchema, (schema) => {
        const r = flattenSchema(schema, { maxDepth: 0, maxLeaves: 0 });
        expect(r.flattened).toBe(true);
        expect(r.paths.length).toBe(schemaShape(schema).leaves);
      }),
    );
  });
});

describe('resolveRefs', () => {
  it('cuts a circular schema with the truncation marker', () => {
    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
        },
      },
    };
    const r = resolveRefs(tree);
    expect(r.truncated).toEqual(['#/$defs/Node']);
    const root = (r.schema as { properties: { root: { properties: { children: { items: unknown } } } } })
      .properties.root;
    expect(root.properties.children.items).toEqual({ type: 'object', description: TRUNCATED_DESCRIPTION });
  });

  it('handles draft-07 definitions, ref siblings, pointer escapes and external refs without fetching', () => {
    const s = {
      type: 'object',
      definitions: { 'a/b': { type: 'integer' }, x: { $ref: '#/definitions/a~1b' } },
      properties: {
        n: { $ref: '#/definitions/x', description: 'local wins' },
        ext: { $ref: 'https://example.com/schema.json' },
        missing: { $ref: '#/definitions/nope' },
      },
    };
    const r = resolveRefs(s);
    expect(r.schema).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', description: 'local wins' },
        ext: { description: '(external reference https://example.com/schema.json not resolved)' },
        missing: { description: '(reference #/definitions/nope not found)' },
      },
    });
    expect(r.unresolved.sort()).toEqual(['#/definitions/nope', 'https://example.com/schema.json']);
  });

  it('bounds exponential fan-out of non-circular refs', () => {
    const defs: Record<string, unknown> = { D0: { type: 'string' } };
    for (let i = 1; i <= 30; i++)
      defs[`D${i}`] = {
        type: 'object',
        properties: { l: { $ref: `#/$defs/D${i - 1}` }, r: { $ref: `#/$defs/D${i - 1}` } },
      };
    const r = resolveRefs({ type: 'object', properties: { top: { $ref: '#/$defs/D30' } }, $defs: defs });
    expect(JSON.stringify(r.schema).length).toBeLessThan(3_000_000);
    expect(r.truncated.length).toBeGreaterThan(0);
  });

  it('survives a 10,000-deep schema without a stack overflow', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { type: 'object', properties: { a: deep } };
    const r = resolveRefs(deep);
    expect(r.truncated).toContain('depth>40');
  });
});

describe('flattening', () => {
  it('flattens deep schemas into dot paths with required propagated', () => {
    const s = {
      type: 'object',
      required: ['a'],
      properties: {
        a: {
          type: 'object',
          required: ['b'],
          properties: { b: { type: 'object', properties: { c: { type: 'integer' } }, required: ['c'] } },
        },
        z: { type: 'string' },
      },
    };
    const r = flattenSchema(s);
    expect(r.flattened).toBe(true);
    expect(r.schema).toEqual({
      type: 'object',
      properties: { 'a.b.c': { type: 'integer' }, z: { type: 'string' } },
      required: ['a.b.c'],
    });
  });

  it('leaves shallow, small schemas alone and refuses to flatten dotted property names', () => {
    const small = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } } },
    };
    expect(flattenSchema(small).flattened).toBe(false);
    const dotted = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k.${i}`, { type: 'string' }])),
    };
    const r = flattenSchema(dotted);
    expect(r.flattened).toBe(false);
    expect(r.note).toMatch(/contains "\."/);
  });

  it('unflattens dot paths, keeps declared dotted keys and refuses prototype keys', () => {
    const input = { 'a.b': 1, 'a.c.d': 'x', 'version.major': 2, '__proto__.polluted': 1, plain: true };
    const r = unflattenArgs(input, { properties: { 'version.major': { type: 'integer' } } });
    expect(r.args).toEqual({
      a: { b: 1, c: { d: 'x' } },
      'version.major': 2,
      '__proto__.polluted': 1,
      plain: true,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(input).toEqual({
      'a.b': 1,
      'a.c.d': 'x',
      'version.major': 2,
      '__proto__.polluted': 1,
      plain: true,
    });
  });

  it('merges a dot path into an object the model also sent', () => {
    expect(unflattenArgs({ a: { x: 1 }, 'a.y': 2 }).args).toEqual({ a: { x: 1, y: 2 } });
    // A conflict with a scalar keeps the dotted key literally for the server to reject.
    expect(unflattenArgs({ a: 5, 'a.y': 2 }).args).toEqual({ a: 5, 'a.y': 2 });
  });
});

describe('adaptSchemaForProvider', () => {
  it('merges a top-level oneOf of objects and describes the alternatives', () => {
    const r = adaptSchemaForProvider(
      {
        oneOf: [
          { type: 'object', title: 'by id', properties: { id: { type: 'integer' } }, required: ['id'] },
          { type: 'object', title: 'by name', properties: { name: { type: 'string' } }, required: ['name'] },
        ],
      },
      'openai',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.schema.type).toBe('object');
    expect(Object.keys(r.schema.properties as object)).toEqual(['id', 'name']);
    expect(r.schema.required).toBeUndefined();
    expect(r.schema.description).toMatch(
      /exactly one of these shapes: by id \(requires id\); by name \(requires name\)/,
    );
  });

  it('excludes what cannot be adapted with a reason, never throws', () => {
    expect(adaptSchemaForProvider({ type: 'string' }, 'anthropic')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/must be an object/),
    });
    expect(
      adaptSchemaForProvider({ anyOf: [{ type: 'string' }, { type: 'object' }] }, 'openai'),
    ).toMatchObject({ ok: false });
    expect(adaptSchemaForProvider(false, 'ollama')).toMatchObject({ ok: false });
    const spaced = { type: 'object', properties: { 'file path': { type: 'string' } } };
    expect(adaptSchemaForProvider(spaced, 'anthropic')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/file path/),
    });
    expect(adaptSchemaForProvider(spaced, 'openai')).toMatchObject({ ok: true });
  });

  it('adds a missing type and properties', () => {
    expect(adaptSchemaForProvider({}, 'ollama')).toMatchObject({
      ok: true,
      schema: { type: 'object', properties: {} },
    });
    expect(adaptSchemaForProvider(undefined, 'openai')).toMatchObject({
      ok: true,
      schema: { type: 'object', properties: {} },
    });
  });
});
