// Fixture servers with nasty schemas load without error: circular $ref,
// depth 8, 50 leaves, 100-character names, top-level oneOf, odd names, and 500 more tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureStdio } from '../../../test/helpers/servers';
import type { SessionPool } from '../mcp/sessionPool';
import { ToolCatalog } from './catalog';
import { ConversationTools } from './conversationTools';
import { gatedCaller, startServers } from '../../../test/helpers/realServers';
import { TRUNCATED_DESCRIPTION } from './schemaRefs';

let pool: SessionPool;
let inputs: ReturnType<Awaited<ReturnType<typeof startServers>>['inputs']>;

beforeAll(async () => {
  const s = await startServers([fixtureStdio('nastySchemas.ts', 'nasty', { NASTY_TOOL_COUNT: '500' })]);
  pool = s.pool;
  inputs = s.inputs();
});
afterAll(async () => {
  await pool?.closeAll();
});

describe('nasty schemas', () => {
  it('loads all 508 tools for every provider without throwing', () => {
    for (const provider of ['anthropic', 'openai', 'ollama'] as const) {
      const c = new ToolCatalog(inputs, { provider });
      expect(c.entries.length).toBe(508);
      for (const e of c.entries) {
        expect(e.modelName).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
        expect(e.inputSchema.type).toBe('object');
        JSON.stringify(e.inputSchema);
      }
      expect(new Set(c.entries.map((e) => e.modelName)).size).toBe(508);
    }
  });

  it('cuts the circular schema and flattens the deep and wide ones', () => {
    const c = new ToolCatalog(inputs);
    const circ = c.get('mcp__nasty__circular_tree')!;
    expect(JSON.stringify(circ.inputSchema)).toContain(TRUNCATED_DESCRIPTION);
    expect(JSON.stringify(circ.inputSchema)).not.toContain('$ref');
    expect(circ.schemaNotes.join(' ')).toMatch(/recursive schema cut/);

    const deep = c.get('mcp__nasty__depth_eight')!;
    expect(deep.flattened).toBe(true);
    expect(Object.keys(deep.inputSchema.properties as object)).toEqual(['l1.l2.l3.l4.l5.l6.l7.l8']);
    expect(deep.inputSchema.required).toEqual(['l1.l2.l3.l4.l5.l6.l7.l8']);

    const wide = c.get('mcp__nasty__fifty_leaves')!;
    expect(Object.keys(wide.inputSchema.properties as object)).toHaveLength(50);
    expect(wide.inputSchema.properties).toHaveProperty(['g4.f9']);
  });

  it('gives the 100-character names distinct short names and maps them back', () => {
    const c = new ToolCatalog(inputs);
    const long = c.entries.filter((e) => e.tool.startsWith('very_long_tool_name_'));
    expect(long).toHaveLength(2);
    expect(long[0]!.modelName).not.toBe(long[1]!.modelName);
    for (const e of long) {
      expect(e.modelName.length).toBeLessThanOrEqual(64);
      expect(c.resolve(e.modelName).tool).toBe(e.tool);
    }
    const odd = c.entries.find((e) => e.tool === 'dotted.name/with spaces')!;
    expect(odd.modelName).toMatch(/^mcp__nasty__dotted-name-with-spaces-[0-9a-f]{8}$/);
  });

  it('adapts per provider or excludes with a visible reason', () => {
    const anthropic = new ToolCatalog(inputs, { provider: 'anthropic' });
    const spaced = anthropic.get('mcp__nasty__spaced_props')!;
    expect(spaced.enabled).toBe(false);
    expect(spaced.excludedReason).toMatch(/"file path" not accepted by Anthropic/);
    expect(anthropic.excluded()).toContainEqual({
      modelName: 'mcp__nasty__spaced_props',
      reason: spaced.excludedReason,
      hint: expect.stringMatching(/Server "nasty" would have to simplify/),
    });
    expect(new ToolCatalog(inputs, { provider: 'openai' }).get('mcp__nasty__spaced_props')!.enabled).toBe(
      true,
    );

    const oneOf = anthropic.get('mcp__nasty__one_of_top')!;
    expect(oneOf.enabled).toBe(true);
    expect(oneOf.inputSchema).not.toHaveProperty('oneOf');
    expect(Object.keys(oneOf.inputSchema.properties as object)).toEqual(['id', 'email']);
  });

  it('sends dot-path arguments to the server nested and typed', async () => {
    const c = new ToolCatalog(inputs);
    const gated = await gatedCaller(pool, () => c);
    const { result, fixes } = await gated
      .call('depth_eight', { 'l1.l2.l3.l4.l5.l6.l7.l8': '7' })
      .finally(() => gated.close());
    expect(fixes).toContainEqual({ path: 'l1.l2.l3.l4.l5.l6.l7.l8', kind: 'dot-path→nested' });
    expect(fixes).toContainEqual({ path: 'l1.l2.l3.l4.l5.l6.l7.l8', kind: 'string→integer' });
    const echoed = JSON.parse((result.parts[0] as { text: string }).text);
    expect(echoed.arguments).toEqual({ l1: { l2: { l3: { l4: { l5: { l6: { l7: { l8: 7 } } } } } } } });
  });

  it('defers 500+ tools behind tool_search', () => {
    const conv = new ConversationTools(new ToolCatalog(inputs));
    expect(conv.mode).toBe('deferred');
    expect(conv.modelTools().map((t) => t.name)).toEqual(['tool_search']);
    expect(conv.deferredNames().length).toBeGreaterThan(500);
    // The list says each server's prefix once; every name in it is recoverable from prefix + tool.
    const text = conv.deferredListText();
    const lines = text.split('\n').slice(1);
    const named = lines.flatMap((l) => {
      const m = /^(mcp__.+?__): (.*)$/.exec(l);
      return m ? m[2]!.split(', ').map((t) => `${m[1]}${t}`) : l.split(', ');
    });
    expect(new Set(named)).toEqual(new Set(conv.deferredNames()));
    expect(text.split('mcp__').length - 1).toBeLessThan(conv.deferredNames().length / 10);
    const out = conv.runToolSearch({ query: 'deletes messages', max_results: 3 });
    expect(out.activated).toHaveLength(3);
    for (const name of out.activated) expect(conv.resolveCall(name).description).toMatch(/deletes|messages/);
  });
});
