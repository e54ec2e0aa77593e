// The engine over Streamable HTTP and legacy SSE (server-everything on 127.0.0.1), and the
// filesystem and memory reference servers over stdio.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import { cfg, filesystemStdio, memoryStdio, startEverythingHttp, tempDir, waitFor } from '../helpers/servers';

const text = (r: { content?: unknown }) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

const actors: SessionActor[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => void (await Promise.all(actors.splice(0).map((a) => a.close()))));
afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

describe.each([
  ['http', 'streamableHttp'],
  ['sse', 'sse'],
] as const)('server-everything over %s', (transport, mode) => {
  it('connects, lists and calls concurrently', async () => {
    const srv = await startEverythingHttp(mode);
    stops.push(srv.stop);
    const a = new SessionActor({ config: cfg({ name: `every-${transport}`, transport, url: srv.url }) });
    actors.push(a);
    await a.start();
    expect(a.tools().map((t) => t.name)).toContain('echo');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => a.tool('echo')!.call({ message: `m${i}` })),
    );
    results.forEach((r, i) => expect(text(r)).toContain(`m${i}`));
    // A 2025-era server (the reference servers are): the probe finds no 2026-07-28, the handshake follows.
    expect(a.protocolEra()).toBe('legacy');
    expect(a.status().protocolVersion).toMatch(/^202[45]-\d\d-\d\d$/);
  });
});

describe('server-filesystem and server-memory over stdio', () => {
  it('lists a directory through server-filesystem', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'hello.txt'), 'hi');
    const a = new SessionActor({ config: filesystemStdio(root) });
    actors.push(a);
    await a.start();
    const r = await a.tool('list_directory')!.call({ path: root });
    expect(text(r)).toContain('hello.txt');
    const denied = await a.tool('read_text_file')!.call({ path: '/etc/hostname' });
    expect(denied.isError).toBe(true);
  });

  it('writes and reads a knowledge graph through server-memory', async () => {
    const file = join(tempDir(), 'memory.jsonl');
    const a = new SessionActor({ config: memoryStdio(file) });
    actors.push(a);
    await a.start();
    await a.tool('create_entities')!.call({
      entities: [{ name: 'Mooring', entityType: 'project', observations: ['an MCP host'] }],
    });
    const graph = await a.tool('read_graph')!.call({});
    expect(text(graph)).toContain('an MCP host');
    await waitFor(() => existsSync(file), 'the memory file');
  });
});
