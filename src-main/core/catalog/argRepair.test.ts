import { describe, expect, it } from 'vitest';
import { coerceArgs, formatFix, stripInternal } from './argRepair';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    force: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    filter: { type: 'object', properties: { limit: { type: 'integer' } } },
    maybe: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    name: { type: 'string' },
  },
};

describe('coerceArgs', () => {
  it('corrects each kind of mistake and records it', () => {
    const r = coerceArgs(
      {
        count: '5',
        ratio: '0.25',
        force: 'TRUE',
        tags: 'one',
        ids: '[1, "2"]',
        filter: '{"limit":"10"}',
        maybe: '7',
        name: 'x',
      },
      schema,
    );
    expect(r.args).toEqual({
      count: 5,
      ratio: 0.25,
      force: true,
      tags: ['one'],
      ids: [1, 2],
      filter: { limit: 10 },
      maybe: 7,
      name: 'x',
    });
    expect(r.fixes.map(formatFix)).toEqual([
      'count: string→integer',
      'ratio: string→number',
      'force: string→boolean',
      'tags: scalar→array',
      'ids: json-string→array',
      'ids[1]: string→integer',
      'filter: json-string→object',
      'filter.limit: string→integer',
      'maybe: string→integer',
    ]);
  });

  it('leaves what it cannot correct alone, for the server to reject', () => {
    const input = { count: 'five', ratio: '', force: 'yes', filter: '{not json', ids: [1.5] };
    const r = coerceArgs(input, schema);
    expect(r.fixes).toEqual([]);
    expect(r.args).toEqual(input);
  });

  it('does not mutate its input and ignores non-object schemas', () => {
    const input = { count: '1' };
    coerceArgs(input, schema);
    expect(input).toEqual({ count: '1' });
    expect(coerceArgs(input, true).args).toEqual(input);
  });

  it('uses additionalProperties and prefixItems', () => {
    const r = coerceArgs(
      { m: { a: '1' }, t: ['2', 'x'] },
      {
        properties: {
          m: { type: 'object', additionalProperties: { type: 'integer' } },
          t: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
        },
      },
    );
    expect(r.args).toEqual({ m: { a: 1 }, t: [2, 'x'] });
  });
});

describe('stripInternal', () => {
  it('removes host-internal fields at every level', () => {
    const r = stripInternal({
      a: 1,
      _mooringTurn: 3,
      nested: { _mooring: true, b: [{ _mooringX: 1, c: 2 }] },
    });
    expect(r.args).toEqual({ a: 1, nested: { b: [{ c: 2 }] } });
    expect(r.fixes.map((f) => f.path)).toEqual(['_mooringTurn', 'nested._mooring', 'nested.b[0]._mooringX']);
  });
});
