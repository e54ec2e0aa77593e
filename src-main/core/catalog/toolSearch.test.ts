// tool_search and the frozen per-conversation tool set (ARCHITECTURE.md, `catalog/`), over real
// servers: server-everything, server-filesystem, server-memory, and the engine fixture whose
// add_tool/remove_tool send a real tools/list_changed.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  everythingStdio,
  filesystemStdio,
  fixtureStdio,
  memoryStdio,
  tempDir,
  waitFor,
} from '../../../test/helpers/servers';
import type { SessionPool } from '../mcp/sessionPool';
import type { ToolsChange } from '../mcp/types';
import { ToolCatalog, type CatalogServerInput } from './catalog';
import { ConversationTools, shouldDefer } from './conversationTools';
import { startServers } from '../../../test/helpers/realServers';
import { generatedServers, searchQueries } from '../../../bench/lib/toolDefs';
import { buildCatalog } from './catalog';
import { parseSelect, parseToolSearchInput, ToolSearchIndex } from './toolSearch';

let pool: SessionPool;
let catalogNow: () => ToolCatalog;
/** The servers' catalog inputs as they are now, less one server (as if it was added later). */
let inputsWithout: (server: string) => CatalogServerInput[];
const changes: ToolsChange[] = [];

beforeAll(async () => {
  const dir = tempDir('mooring-toolsearch-');
  const s = await startServers([
    everythingStdio('everything'),
    filesystemStdio(dir, 'fs'),
    memoryStdio(join(dir, 'memory.jsonl'), 'memory'),
    fixtureStdio('engineServer.ts', 'engine'),
  ]);
  pool = s.pool;
  pool.on('tools', (c) => changes.push(c));
  catalogNow = () => new ToolCatalog(s.inputs());
  inputsWithout = (server) => s.inputs().filter((i) => i.server !== server);
});
afterAll(async () => {
  await pool?.closeAll();
});

/** Force deferred mode on a small catalog. */
const deferred = () => new ConversationTools(catalogNow(), { thresholds: { maxTools: 3 } });

describe('tool_search', () => {
  it('select: activates exact and bare names, reports the rest as Not found', () => {
    const conv = deferred();
    expect(conv.mode).toBe('deferred');
    const out = conv.runToolSearch({ query: 'select:mcp__fs__read_text_file, read_graph,nope_a,nope_b' });
    expect(out.activated).toEqual(['mcp__fs__read_text_file', 'mcp__memory__read_graph']);
    expect(out.notFound).toEqual(['nope_a', 'nope_b']);
    expect(out.text).toContain('Not found: nope_a, nope_b');
    expect(conv.modelTools().map((t) => t.name)).toEqual([
      'tool_search',
      'mcp__fs__read_text_file',
      'mcp__memory__read_graph',
    ]);
    expect(conv.modelTools()[1]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string' } },
    });
  });

  it('ranks by relevance: a relevant description wins', () => {
    const conv = deferred();
    // Matches only in descriptions, not in names: the description must carry the ranking.
    expect(conv.runToolSearch({ query: 'sum of two numbers', max_results: 1 }).activated).toEqual([
      'mcp__everything__get-sum',
    ]);
    expect(conv.runToolSearch({ query: 'compress', max_results: 1 }).activated).toEqual([
      'mcp__everything__gzip-file-as-resource',
    ]);
    expect(conv.runToolSearch({ query: 'environment variables', max_results: 1 }).activated).toEqual([
      'mcp__everything__get-env',
    ]);
    const files = conv.runToolSearch({ query: 'read the contents of a text file', max_results: 3 }).activated;
    expect(files[0]).toMatch(/^mcp__fs__read_/);
    const graph = conv.runToolSearch({ query: 'knowledge graph entities', max_results: 5 }).activated;
    expect(graph.length).toBeGreaterThan(0);
    expect(graph.every((n) => n.startsWith('mcp__memory__'))).toBe(true);
    const none = conv.runToolSearch({ query: 'zzqqxx' });
    expect(none.activated).toEqual([]);
    expect(none.text).toBe('No tools match "zzqqxx".');
  });

  it('activations persist across calls and repeats are reported as already active', () => {
    const conv = deferred();
    // Two servers have "echo": a bare select is ambiguous and says so, naming both.
    const ambiguous = conv.runToolSearch({ query: 'select:echo' });
    expect(ambiguous.activated).toEqual([]);
    expect(ambiguous.text).toContain('Ambiguous: echo (mcp__everything__echo, mcp__engine__echo)');
    conv.runToolSearch({ query: 'select:mcp__everything__echo' });
    conv.runToolSearch({ query: 'select:mcp__memory__create_entities' });
    const again = conv.runToolSearch({ query: 'select:mcp__everything__echo' });
    expect(again.activated).toEqual([]);
    expect(again.alreadyActive).toEqual(['mcp__everything__echo']);
    expect(conv.modelTools().map((t) => t.name)).toEqual([
      'tool_search',
      'mcp__everything__echo',
      'mcp__memory__create_entities',
    ]);
    expect(conv.resolveCall('mcp__everything__echo').tool).toBe('echo');
    expect(() => conv.resolveCall('mcp__everything__get-sum')).toThrow(/not loaded yet/);
    const restored = new ConversationTools(catalogNow(), { restore: conv.state() });
    expect(restored.modelTools()).toEqual(conv.modelTools());
  });

  it("keeps MiniSearch's own ranking, ties included, without making every match", () => {
    // 1,000 generated tools from a small vocabulary: hundreds match each query, many with equal scores.
    const all = [...catalogNow().active(), ...buildCatalog(generatedServers(10, 100)).active()];
    const index = new ToolSearchIndex(all);
    const names = (es: { modelName: string }[]) => es.map((e) => e.modelName);
    let compared = 0;
    for (const q of [...searchQueries(), 'echo', 'read file', 'entities', 'xyzzy nothing'])
      for (const k of [1, 5, 50]) {
        expect(names(index.search(q, k)), `${q} (${k})`).toEqual(names(index.searchAll(q, k)));
        compared += index.searchAll(q, k).length;
      }
    expect(compared).toBeGreaterThan(1000);
  });

  it('rejects a bad input with a usage error the model can read', () => {
    expect(() => parseToolSearchInput({})).toThrow(/non-empty "query"/);
    expect(parseToolSearchInput({ query: 'x', max_results: '2' })).toEqual({ query: 'x', maxResults: 2 });
    expect(parseSelect('SELECT: a , b,,a')).toEqual(['a', 'b']);
    expect(parseSelect('find a file')).toBeUndefined();
  });
});

describe('frozen conversation tools over a real list_changed', () => {
  it('keeps the prompt list, fails removed tools explicitly, finds new tools through tool_search', async () => {
    const before = catalogNow();
    // Four servers list more than 40 tools: the default thresholds defer.
    expect(before.active().length).toBeGreaterThan(40);
    expect(shouldDefer(before.active())).toBe(true);
    expect(shouldDefer(before.active(), { maxTools: 1000, maxTokens: 100 })).toBe(true);
    expect(shouldDefer(before.active(), { maxTools: 1000, maxTokens: 1_000_000 })).toBe(false);
    const direct = new ConversationTools(before, {
      thresholds: { maxTools: 1000, maxTokens: 1_000_000 },
      alwaysOfferToolSearch: true,
    });
    const deferredConv = new ConversationTools(before, { thresholds: { maxTools: 3 } });
    expect(direct.mode).toBe('direct');
    const engine = pool.get('engine')!;
    await engine.tool('add_tool')!.call({ name: 'ephemeral' });
    await waitFor(() => changes.find((c) => c.added.includes('ephemeral')), 'list_changed add');
    const withNew = catalogNow();
    direct.updateCatalog(withNew);
    deferredConv.updateCatalog(withNew);
    const listBefore = direct.modelTools();
    expect(listBefore.map((t) => t.name)).not.toContain('mcp__engine__ephemeral');
    expect(() => direct.resolveCall('mcp__engine__ephemeral')).toThrow(
      /appeared after this conversation started/,
    );
    expect(deferredConv.runToolSearch({ query: 'select:ephemeral' }).activated).toEqual([
      'mcp__engine__ephemeral',
    ]);
    expect(deferredConv.resolveCall('ephemeral').tool).toBe('ephemeral');

    // A direct conversation that offers tool_search can load it too; the frozen part stays first.
    direct.runToolSearch({ query: 'select:mcp__engine__ephemeral' });
    expect(direct.modelTools().slice(0, listBefore.length)).toEqual(listBefore);
    expect(direct.modelTools().at(-1)!.name).toBe('mcp__engine__ephemeral');

    await engine.tool('remove_tool')!.call({ name: 'ephemeral' });
    await waitFor(() => changes.find((c) => c.removed.includes('ephemeral')), 'list_changed remove');
    const after = catalogNow();
    deferredConv.updateCatalog(after);
    direct.updateCatalog(after);
    // The prompt keeps the definition (cache stays warm) but calling it fails clearly.
    expect(deferredConv.modelTools().map((t) => t.name)).toContain('mcp__engine__ephemeral');
    expect(() => deferredConv.resolveCall('mcp__engine__ephemeral')).toThrow(/was removed by its server/);
    expect(() => direct.resolveCall('mcp__engine__ephemeral')).toThrow(/was removed by its server/);
    // Tools still listed keep working through the same frozen names.
    expect(direct.resolveCall('mcp__engine__echo').handle.removed).toBe(false);
  });
});

describe('a server added mid-conversation', () => {
  it("its tools that are on join the conversation's list at the next turn, said as on; then nothing moves", () => {
    const all = catalogNow();
    const withoutFs = new ToolCatalog(inputsWithout('fs'));
    const conv = new ConversationTools(withoutFs, { thresholds: { maxTools: 1000, maxTokens: 1_000_000 } });
    expect(conv.mode).toBe('direct');
    const fsOn = all.active().filter((e) => e.server === 'fs');
    expect(fsOn.length).toBeGreaterThan(5);
    expect(conv.modelTools().map((t) => t.name)).not.toContain(fsOn[0]!.modelName);

    conv.updateCatalog(all);
    const { on, off } = conv.applySwitches();
    expect(on.map((e) => e.modelName).sort()).toEqual(fsOn.map((e) => e.modelName).sort());
    expect(off).toEqual([]);
    const names = conv.modelTools().map((t) => t.name);
    for (const e of fsOn) expect(names).toContain(e.modelName);
    // Tools of the new server that are off (the default safe set) stay out.
    for (const e of all.switchable().filter((x) => x.server === 'fs' && !x.enabled))
      expect(names).not.toContain(e.modelName);
    // Nothing moved since: the same list, byte for byte.
    const block = JSON.stringify(conv.modelTools());
    expect(conv.applySwitches()).toEqual({ on: [], off: [] });
    expect(JSON.stringify(conv.modelTools())).toBe(block);
  });
});
