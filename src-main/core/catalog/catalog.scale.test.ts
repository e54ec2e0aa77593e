// Catalog build cost at scale (README.md, Performance: 5,000 tools in ≤ 50 ms). Timing is
// printed, never asserted (noisy 2-core machines); what is asserted is that a rebuild reuses the
// processed schema of every unchanged definition and reprocesses only what changed.
import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { ToolHandle } from '../mcp/types';
import { ToolCatalog, type CatalogServerInput } from './catalog';
import { ConversationTools } from './conversationTools';

class FixedHandle implements ToolHandle {
  removed = false;
  constructor(
    readonly server: string,
    public definition: Tool,
  ) {}
  get name() {
    return this.definition.name;
  }
  async call() {
    return { content: [{ type: 'text' as const, text: this.name }] };
  }
}

function servers(
  nServers: number,
  perServer: number,
): { inputs: CatalogServerInput[]; handles: FixedHandle[] } {
  const handles: FixedHandle[] = [];
  const inputs = Array.from({ length: nServers }, (_, s) => {
    const server = `server_${s}`;
    const tools = Array.from({ length: perServer }, (_, i) => {
      const h = new FixedHandle(server, {
        name: `tool_${i}`,
        description: `Does thing ${i} on ${server}`,
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            opts: {
              type: 'object',
              properties: { deep: { type: 'object', properties: { x: { type: 'string' } } } },
            },
          },
        },
        annotations: { readOnlyHint: i % 2 === 0 },
      });
      handles.push(h);
      return h;
    });
    return { server, tools };
  });
  return { inputs, handles };
}

describe('catalog at scale', () => {
  it('builds 5,000 tools and rebuilds reusing unchanged schemas', () => {
    new ToolCatalog(servers(50, 100).inputs); // warm the JIT on other definition objects
    const { inputs, handles } = servers(50, 100);
    let t = performance.now();
    const first = new ToolCatalog(inputs);
    const coldMs = performance.now() - t;
    t = performance.now();
    const second = first.rebuild();
    const warmMs = performance.now() - t;
    console.info(
      `catalog of ${first.entries.length} tools: build from new definitions ${coldMs.toFixed(1)} ms, rebuild ${warmMs.toFixed(1)} ms`,
    );

    expect(first.entries).toHaveLength(5000);
    expect(first.get('mcp__server_7__tool_42')!.flattened).toBe(true);
    expect(second.get('mcp__server_7__tool_42')!.inputSchema).toBe(
      first.get('mcp__server_7__tool_42')!.inputSchema,
    );

    // One server's list_changed: a new definition object for one tool.
    const changed = handles.find((h) => h.server === 'server_3' && h.name === 'tool_5')!;
    changed.definition = {
      ...changed.definition,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    };
    const third = second.rebuild();
    expect(third.get('mcp__server_3__tool_5')!.inputSchema).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
    });
    expect(third.get('mcp__server_3__tool_6')!.inputSchema).toBe(
      first.get('mcp__server_3__tool_6')!.inputSchema,
    );

    // 5,000 tools defer by count without tokenizing a single schema.
    t = performance.now();
    expect(new ConversationTools(third).mode).toBe('deferred');
    console.info(`deferral decision over 5,000 tools: ${(performance.now() - t).toFixed(1)} ms`);
  });
});
