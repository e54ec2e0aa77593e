// The catalog over real servers from node_modules (ARCHITECTURE.md, "The core, by room": catalog/): server-everything,
// server-filesystem and server-memory together; two copies of one server; images end to end. Calls go
// through the gated path (calls/toolCallRunner.ts), the only way to reach a server.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toResultJson } from '@shared/toolResult';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingStdio, filesystemStdio, memoryStdio, tempDir } from '../../../test/helpers/servers';
import { MooringError } from '../errors';
import type { SessionPool } from '../mcp/sessionPool';
import { ToolCatalog } from './catalog';
import { toModelContent } from './normalizeResult';
import { gatedCaller, startServers } from '../../../test/helpers/realServers';

const MODEL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
let pool: SessionPool;
let catalog: ToolCatalog;
let root: string;
let gated: Awaited<ReturnType<typeof gatedCaller>>;

beforeAll(async () => {
  const dir = tempDir('mooring-catalog-');
  root = join(dir, 'root');
  mkdirSync(root);
  writeFileSync(join(root, 'hello.txt'), 'hello from the catalog test\n');
  const started = await startServers([
    everythingStdio('everything'),
    everythingStdio('everything_2'),
    filesystemStdio(root, 'fs'),
    memoryStdio(join(dir, 'memory.jsonl'), 'memory'),
  ]);
  pool = started.pool;
  catalog = new ToolCatalog(started.inputs());
  gated = await gatedCaller(pool, () => catalog);
});
afterAll(async () => {
  await gated?.close();
  await pool?.closeAll();
});

async function thrown(fn: () => unknown): Promise<MooringError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MooringError);
    return e as MooringError;
  }
  throw new Error('expected a MooringError');
}

describe('catalog over everything + filesystem + memory', () => {
  it('names every tool validly and uniquely, with annotations and token costs', () => {
    const servers = new Set(catalog.entries.map((e) => e.server));
    expect(servers).toEqual(new Set(['everything', 'everything_2', 'fs', 'memory']));
    const names = catalog.entries.map((e) => e.modelName);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(MODEL_NAME);
    const echo = catalog.get('mcp__everything__echo')!;
    expect(echo).toMatchObject({
      server: 'everything',
      tool: 'echo',
      readOnly: true,
      destructive: false,
      enabled: true,
    });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(catalog.get('mcp__fs__write_file')).toMatchObject({ readOnly: false, destructive: true });
    const costs = catalog.tokenCostByServer();
    for (const s of servers) expect(costs[s]).toBeGreaterThan(0);
    // Same tools; the longer server name costs a few tokens per tool, nothing more.
    const n = catalog.entries.filter((e) => e.server === 'everything').length;
    expect(costs.everything_2! - costs.everything!).toBeGreaterThanOrEqual(0);
    expect(costs.everything_2! - costs.everything!).toBeLessThanOrEqual(3 * n);
  });

  it('gives the CLI summary shape', () => {
    const rows = catalog.summaries();
    expect(rows.length).toBe(catalog.active().length);
    const row = rows.find((r) => r.name === 'mcp__memory__read_graph');
    expect(row).toEqual({
      name: 'mcp__memory__read_graph',
      server: 'memory',
      tool: 'read_graph',
      description: expect.any(String),
      readOnly: true,
      destructive: false,
      enabled: true,
    });
    expect(Object.keys(rows[0]!)).toEqual([
      'name',
      'server',
      'tool',
      'description',
      'readOnly',
      'destructive',
      'enabled',
    ]);
  });

  it('resolves a collision between two copies by prefix, and a bare name errors naming both', async () => {
    expect(catalog.resolve('mcp__everything_2__echo').server).toBe('everything_2');
    const err = await thrown(() => catalog.resolve('echo'));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('mcp__everything__echo');
    expect(err.message).toContain('mcp__everything_2__echo');
    // A bare name only one server has resolves.
    expect(catalog.resolve('read_graph').modelName).toBe('mcp__memory__read_graph');
    expect(catalog.resolve('memory__read_graph').modelName).toBe('mcp__memory__read_graph');
    expect((await thrown(() => catalog.resolve('no_such_tool'))).code).toBe('not_found');
  });

  it('coerces string numbers before calling get-sum on the real server', async () => {
    const { result, fixes } = await gated.call('mcp__everything__get-sum', {
      a: '2',
      b: '40',
      _mooringTrace: 'x',
    });
    expect(fixes).toEqual([
      { path: '_mooringTrace', kind: 'internal-field-removed' },
      { path: 'a', kind: 'string→number' },
      { path: 'b', kind: 'string→number' },
    ]);
    expect(result.isError).toBe(false);
    expect(toResultJson(result).text).toContain('42');
  });

  it('repairs a JSON-string array for server-memory and reads it back', async () => {
    const entities = JSON.stringify([
      { name: 'Mooring', entityType: 'project', observations: ['a desktop MCP host'] },
    ]);
    const created = await gated.call('create_entities', { entities });
    expect(created.fixes).toContainEqual({ path: 'entities', kind: 'json-string→array' });
    expect(created.result.isError).toBe(false);
    const graph = await gated.call('mcp__memory__read_graph', {});
    expect(JSON.stringify(graph.result)).toContain('a desktop MCP host');
  });

  it('reads a real file through server-filesystem, and a server-side failure is a value, not an exception', async () => {
    const ok = await gated.call('mcp__fs__read_text_file', { path: join(root, 'hello.txt') });
    expect(toResultJson(ok.result).text).toContain('hello from the catalog test');
    const bad = await gated.call('mcp__fs__read_text_file', { path: '/etc/passwd' });
    expect(bad.result.isError).toBe(true);
    expect(toResultJson(bad.result).text).toMatch(/denied|outside|not allowed/i);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toContain('hello');
  });

  it('normalises the tiny image from server-everything, and a non-vision prompt gets a placeholder', async () => {
    const { result } = await gated.call('mcp__everything__get-tiny-image', {});
    const image = result.parts.find((p) => p.kind === 'image');
    expect(image).toMatchObject({ kind: 'image', mimeType: 'image/png' });
    if (image?.kind !== 'image') throw new Error('no image');
    expect(Buffer.from(image.bytes.subarray(1, 4)).toString()).toBe('PNG');
    expect(image.size).toBe(image.bytes.byteLength);
    const json = toResultJson(result);
    expect(json.images).toEqual([{ mimeType: 'image/png', bytes: image.size }]);
    expect(JSON.stringify(json)).not.toContain('iVBOR');

    const plain = toModelContent(result, { vision: false, maxChars: 10_000 });
    const text = plain.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(text).toMatch(/\[image: image\/png, \d+ (B|KB)\]/);
    expect(text).not.toContain('iVBOR');
    expect(plain.content.every((b) => b.type === 'text')).toBe(true);

    const vision = toModelContent(result, { vision: true, maxChars: 10_000 });
    expect(vision.content).toContainEqual({ type: 'image', mimeType: 'image/png', bytes: image.bytes });
  });

  it('validates structuredContent against the outputSchema', async () => {
    const { result } = await gated.call('mcp__everything__get-structured-content', { location: 'Chicago' });
    expect(result.structured).toMatchObject({ temperature: expect.any(Number) });
    expect(result.structuredValidation).toEqual({ valid: true });
    const model = toModelContent(result, { vision: false, maxChars: 10_000 });
    expect(model.content[0]).toMatchObject({ type: 'text' });
  });

  it('applies include/exclude filters and tool sets without losing the names', () => {
    const inputs = pool.list().map((a) => ({ server: a.status().name, tools: a.tools() }));
    const filtered = new ToolCatalog(
      inputs.map((i) =>
        i.server === 'fs'
          ? { ...i, config: { includeTools: ['read_text_file', 'write_file'], excludeTools: ['write_file'] } }
          : i,
      ),
      { toolSet: { name: 'Reader', tools: ['mcp__fs__read_text_file', 'mcp__memory__read_graph'] } },
    );
    expect(
      filtered
        .active()
        .map((e) => e.modelName)
        .sort(),
    ).toEqual(['mcp__fs__read_text_file', 'mcp__memory__read_graph']);
    expect(filtered.get('mcp__fs__write_file')?.excludedReason).toBe('listed in excludeTools');
    expect(filtered.get('mcp__fs__list_directory')?.excludedReason).toBe('not listed in includeTools');
    expect(filtered.get('mcp__memory__create_entities')?.excludedReason).toBe('not in tool set "Reader"');
    expect(() => filtered.resolve('mcp__fs__write_file')).toThrow(/not available: listed in excludeTools/);
  });
});
