// Lazy schema processing (catalog.ts, `Entry`): a catalog build processes no schema it can prove fine, yet
// every public answer is the same as if it had — a tool whose schema cannot be adapted is still
// excluded at once, with its reason, in active(), excluded(), resolve() and summaries().
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ToolHandle } from '../mcp/types';
import { ToolCatalog, type CatalogServerInput } from './catalog';
import { computeSchema } from './schemaPipeline';

class FixedHandle implements ToolHandle {
  removed = false;
  constructor(
    readonly server: string,
    public definition: Tool,
  ) {}
  get name() {
    return this.definition.name;
  }
  async call(args: Record<string, unknown>) {
    return { content: [{ type: 'text' as const, text: JSON.stringify(args) }] };
  }
}

/** A leaf subschema that counts how often its `description` is read: the full pipeline copies
 * every keyword of every node, the build-time check reads only `properties` and `$ref`. */
function watchedLeaf(): { schema: { type: string; description: string }; reads: () => number } {
  let n = 0;
  const schema = new Proxy(
    { type: 'integer', description: 'how many' },
    {
      get(target, key, receiver) {
        if (key === 'description') n++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    },
  );
  return { schema, reads: () => n };
}

const longName = 'a_rather_long_property_name_for_settings'; // 40 characters
function tools(): Tool[] {
  return [
    {
      name: 'fine',
      inputSchema: {
        type: 'object',
        $defs: { Page: { type: 'object', properties: { cursor: { type: 'string' } } } },
        properties: { page: { $ref: '#/$defs/Page' }, n: { type: 'integer' } },
      },
    },
    // Flattened (depth 3), its dot path is 40 + 2 + 27 = 69 characters: Anthropic refuses it.
    {
      name: 'long_path',
      inputSchema: {
        type: 'object',
        properties: {
          outer_settings_group_layer: {
            type: 'object',
            properties: { inner: { type: 'object', properties: { [longName]: { type: 'string' } } } },
          },
        },
      },
    },
    { name: 'not_an_object', inputSchema: { type: 'string' } as unknown as Tool['inputSchema'] },
    {
      name: 'one_of_scalars',
      inputSchema: { type: 'object', oneOf: [{ type: 'string' }, { type: 'integer' }] },
    },
  ];
}

function inputs(extra: Partial<CatalogServerInput> = {}): CatalogServerInput[] {
  return [{ server: 'srv', tools: tools().map((d) => new FixedHandle('srv', d)), ...extra }];
}

describe('catalog with lazy schemas', () => {
  it('does not process a provably fine schema until it is read', () => {
    const leaf = watchedLeaf();
    const handle = new FixedHandle('w', {
      name: 'watched',
      inputSchema: {
        type: 'object',
        properties: { count: leaf.schema, nested: { type: 'object', properties: { x: leaf.schema } } },
      },
    });
    const c = new ToolCatalog([{ server: 'w', tools: [handle] }]);
    const e = c.get('mcp__w__watched')!;
    expect(e.enabled).toBe(true);
    expect(c.active().map((a) => a.modelName)).toEqual(['mcp__w__watched']);
    expect(leaf.reads()).toBe(0);
    expect(e.inputSchema.properties).toMatchObject({ count: { type: 'integer', description: 'how many' } });
    expect(leaf.reads()).toBeGreaterThan(0);
    expect(e.inputSchema).toBe(e.inputSchema); // computed once
  });

  it('excludes unadaptable schemas at build time, with the same reasons as the full pipeline', () => {
    const c = new ToolCatalog(inputs(), { provider: 'anthropic' });
    // Asked before any schema is read.
    expect(c.active().map((e) => e.tool)).toEqual(['fine']);
    const excluded = c.excluded();
    expect(excluded.map((x) => x.modelName)).toEqual([
      'mcp__srv__long_path',
      'mcp__srv__not_an_object',
      'mcp__srv__one_of_scalars',
    ]);
    for (const x of excluded) {
      const def = tools().find((t) => `mcp__srv__${t.name}` === x.modelName)!;
      expect(x.reason).toBe(
        `its input schema cannot be given to a model: ${computeSchema(def.inputSchema, 'anthropic').excludedReason}`,
      );
      expect(x.hint).toMatch(/would have to simplify the tool's input schema/);
    }
    expect(excluded[0]!.reason).toMatch(/not accepted by Anthropic/);
    expect(c.summaries().map((s) => s.tool)).toEqual(['fine']);
    expect(c.summaries({ includeDisabled: true })).toHaveLength(4);
    expect(() => c.resolve('mcp__srv__long_path')).toThrow(/not available: .*not accepted by Anthropic/);
    expect(() => c.resolve('long_path')).toThrow(/No tool named/); // bare names match active tools only
    expect(c.tryResolve('fine').ok).toBe(true);
    // The excluded entry still shows a schema (an empty object) and its notes when asked.
    const longPath = c.get('mcp__srv__long_path')!;
    expect(longPath.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(longPath.flattened).toBe(true);
  });

  it('lets OpenAI take what only Anthropic refuses', () => {
    const c = new ToolCatalog(inputs(), { provider: 'openai' });
    expect(c.active().map((e) => e.tool)).toEqual(['fine', 'long_path']);
    expect(Object.keys(c.get('mcp__srv__long_path')!.inputSchema.properties as object)).toEqual([
      `outer_settings_group_layer.inner.${longName}`,
    ]);
  });

  it('puts the server filter reason first, as before, without looking at the schema', () => {
    const c = new ToolCatalog(inputs({ config: { excludeTools: ['not_an_object'] } }));
    expect(c.get('mcp__srv__not_an_object')!.excludedReason).toBe('listed in excludeTools');
    const off = new ToolCatalog(inputs({ config: { enabled: false } }));
    expect(off.excluded().every((x) => x.reason === 'the server is disabled')).toBe(true);
  });

  it('rebuilds reusing what it knew about unchanged definitions, and re-decides changed ones', () => {
    const handles = tools().map((d) => new FixedHandle('srv', d));
    const first = new ToolCatalog([{ server: 'srv', tools: handles }]);
    const fine = first.get('mcp__srv__fine')!;
    const schema = fine.inputSchema;
    // `fine` becomes unadaptable, `not_an_object` becomes fine.
    handles[0]!.definition = { name: 'fine', inputSchema: { type: 'object', properties: { 'a b': {} } } };
    handles[2]!.definition = { name: 'not_an_object', inputSchema: { type: 'object' } };
    const second = first.rebuild();
    expect(second.get('mcp__srv__fine')!.excludedReason).toMatch(/"a b" not accepted by Anthropic/);
    expect(second.active().map((e) => e.tool)).toEqual(['not_an_object']);
    expect(second.get('mcp__srv__long_path')!.excludedReason).toBe(
      first.get('mcp__srv__long_path')!.excludedReason,
    );
    expect(first.get('mcp__srv__fine')!.inputSchema).toBe(schema); // the old catalog is untouched
    const openai = second.rebuild(undefined, { provider: 'openai' });
    expect(openai.get('mcp__srv__fine')!.enabled).toBe(true);
  });

  it('describes the definition it was built from, even if the handle changes before the first read', () => {
    const handle = new FixedHandle('srv', {
      name: 'count',
      inputSchema: {
        type: 'object',
        properties: { opts: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    });
    const c = new ToolCatalog([{ server: 'srv', tools: [handle] }]);
    handle.definition = {
      name: 'count',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    };
    const e = c.get('mcp__srv__count')!;
    expect(Object.keys(e.inputSchema.properties as object)).toEqual(['opts']);
    // prepareArguments reads the lazily processed server schema: dot paths nest, strings coerce.
    expect(c.prepareArguments(e, { 'opts.n': '3' })).toEqual({
      args: { opts: { n: 3 } },
      fixes: [{ path: 'opts.n', kind: 'dot-path→nested' }, expect.objectContaining({ path: 'opts.n' })],
    });
  });
});
