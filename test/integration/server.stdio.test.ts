// `mooring serve --stdio` end to end (ARCHITECTURE.md, "`mooring serve` and the running app"): the SDK's own client launches the real CLI
// with a temp MOORING_HOME whose servers are real (server-filesystem, the engine fixture), then lists and
// calls each capability, is refused at once an approval nobody can give, and sees list_changed arrive.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src-main/core/agent/conversationStore';
import { startOpenAIServer } from '../fixtures/providers/openaiServer';
import type { FakeProviderServer } from '../fixtures/providers/scriptedServer';
import { freePort, tempDir, waitFor } from '../helpers/servers';
import { serveCommandLine, watchToolList, writeHome } from './serverHelpers';

type KnownTools = { servers: Record<string, { quarantined: string[] }> };

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

async function connect(home: string, extraArgs: string[], name: string, env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serveCommandLine(), 'serve', '--stdio', ...extraArgs],
    env: {
      ...(process.env as Record<string, string>),
      MOORING_HOME: home,
      MOORING_NO_SHELL_PATH: '1',
      ...env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('mooring serve --stdio', () => {
  let fsRoot: string;
  let home: string;
  let client: Client;
  let conversationId: string;
  let model: FakeProviderServer;

  beforeAll(async () => {
    fsRoot = tempDir('mooring-serve-fs-');
    writeFileSync(join(fsRoot, 'hello.txt'), 'hello from the filesystem');
    home = writeHome(fsRoot);
    const store = ConversationStore.forHome(home);
    const c = await store.create({ title: 'Deploy checklist for Friday' });
    conversationId = c.id;
    await store.append(c.id, {
      id: 'm1',
      at: Date.now(),
      role: 'user',
      origin: 'person',
      content: [{ type: 'text', text: 'What do we check before a deploy?' }],
    });
    const closedPort = await freePort(); // nothing listens here: the model is unreachable
    model = await startOpenAIServer([{ text: 'The deploy is on Friday.' }], {
      titles: [{ text: 'Deploy day' }],
    });
    ({ client } = await connect(home, ['--approval-timeout', '2'], 'stdio-test-client', {
      MOORING_OLLAMA_URL: `http://127.0.0.1:${closedPort}`,
      MOORING_OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_API_KEY: 'test-key',
    }));
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    await model?.close();
  });

  it('lists memory, sessions and every connected server tool with annotations', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'memory_create',
        'memory_search',
        'memory_read',
        'memory_delete',
        'sessions_list',
        'sessions_read',
        'sessions_search',
        'start_session',
        'mcp__files__read_text_file',
        'mcp__files__write_file',
        'mcp__engine__echo',
      ]),
    );
    expect(tools.find((t) => t.name === 'mcp__files__read_text_file')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'mcp__files__write_file')?.annotations?.readOnlyHint).not.toBe(true);
    expect(tools.find((t) => t.name === 'mcp__engine__echo')?.inputSchema).toMatchObject({
      properties: { text: { type: 'string' } },
    });
  });

  it('creates, searches, reads (tool and resource) and deletes memory', async () => {
    const created = await client.callTool({
      name: 'memory_create',
      arguments: { text: 'The staging database listens on port 5433', tags: ['postgres'] },
    });
    expect(created.isError).toBeFalsy();
    const id = (created.structuredContent as { entry: { id: string } }).entry.id;
    const found = await client.callTool({ name: 'memory_search', arguments: { query: 'staging databse' } });
    expect(text(found)).toContain(id);
    expect(text(await client.callTool({ name: 'memory_read', arguments: { id } }))).toContain('5433');
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`mooring://memory/${id}`);
    const read = await client.readResource({ uri: `mooring://memory/${id}` });
    expect((read.contents[0] as { text: string }).text).toContain('5433');
    // saved by this client: the source is the name from the handshake
    expect(readFileSync(join(home, 'memory.jsonl'), 'utf8')).toContain('"source":"stdio-test-client"');
    expect((await client.callTool({ name: 'memory_delete', arguments: { id } })).isError).toBeFalsy();
    const gone = await client.callTool({ name: 'memory_read', arguments: { id } });
    expect(gone.isError).toBe(true);
    expect(text(gone)).toMatch(/No memory entry/);
  });

  it('lists, searches and reads conversations', async () => {
    expect(text(await client.callTool({ name: 'sessions_list', arguments: {} }))).toContain(conversationId);
    expect(
      text(await client.callTool({ name: 'sessions_search', arguments: { query: 'deploy' } })),
    ).toContain('Deploy checklist for Friday');
    expect(text(await client.callTool({ name: 'sessions_search', arguments: { query: 'zebra' } }))).toMatch(
      /No conversation/,
    );
    const read = await client.callTool({ name: 'sessions_read', arguments: { id: conversationId } });
    expect(text(read)).toContain('What do we check before a deploy?');
  });

  it('start_session without a reachable model is a clear tool error', async () => {
    const r = await client.callTool({ name: 'start_session', arguments: { prompt: 'hello?' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/start_session: Mooring's agent could not answer with the model ollama:/);
  });

  it('calls a read-only server tool through the core, audited with the client name', async () => {
    const r = await client.callTool({
      name: 'mcp__files__read_text_file',
      arguments: { path: join(fsRoot, 'hello.txt') },
    });
    expect(r.isError).toBeFalsy();
    expect(text(r)).toContain('hello from the filesystem');
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(
      /"tool":"read_text_file".*"client":"stdio-test-client"|"client":"stdio-test-client".*"tool":"read_text_file"/,
    );
  });

  it('with no app to ask, a destructive call is refused at once, saying what to do', async () => {
    const target = join(fsRoot, 'written.txt');
    const r = await client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'should not be written' },
    });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(
      /Nobody can approve "Write File" \(files\/write_file\) for stdio-test-client: no Mooring app is running for this home, so Mooring refused the call\./,
    );
    expect(text(r)).toMatch(/Open Mooring on this computer \(the desktop app, or `mooring web`\)/);
    expect((r._meta?.['mooring/error'] as { code: string }).code).toBe('refused');
    expect(existsSync(target)).toBe(false);
    const lines = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = lines.filter((l) => l.tool === 'write_file').at(-1);
    expect(last).toMatchObject({ client: 'stdio-test-client' });
    expect(['cancelled', 'timeout']).toContain(last.decision);
  });

  it('sends tools/list_changed when a connected server adds or removes a tool; quarantined tools stay hidden', async () => {
    const tools = watchToolList(client);
    let changed = tools.next();
    expect(
      text(await client.callTool({ name: 'mcp__engine__add_tool', arguments: { name: 'fresh_tool' } })),
    ).toContain('added fresh_tool');
    await changed;
    expect(await tools.until((n) => n.includes('mcp__engine__fresh_tool'))).toContain(
      'mcp__engine__fresh_tool',
    );

    changed = tools.next();
    await client.callTool({ name: 'mcp__engine__remove_tool', arguments: { name: 'fresh_tool' } });
    await changed;
    expect(await tools.until((n) => !n.includes('mcp__engine__fresh_tool'))).not.toContain(
      'mcp__engine__fresh_tool',
    );

    // A tool the engine never listed before arrives quarantined (disabled until the user enables it).
    await client.callTool({ name: 'mcp__engine__add_tool', arguments: { name: 'brand_new' } });
    const quarantined = () =>
      (JSON.parse(readFileSync(join(home, 'known_tools.json'), 'utf8')) as KnownTools).servers.engine
        ?.quarantined ?? [];
    await waitFor(() => quarantined().includes('brand_new'), 'known_tools.json to quarantine brand_new');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('mcp__engine__brand_new');
    expect(tools.notified()).toBeGreaterThanOrEqual(2);
  });

  it('a read-only scope sees only read-only tools and cannot call a destructive one', async () => {
    const ro = await connect(home, ['--read-only'], 'read-only-client');
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('mcp__files__read_text_file');
      expect(names).toContain('memory_search');
      expect(names).not.toContain('mcp__files__write_file');
      expect(names).not.toContain('memory_create');
      expect(names).not.toContain('start_session');
      const target = join(fsRoot, 'ro-written.txt');
      const r = await ro.client
        .callTool({ name: 'mcp__files__write_file', arguments: { path: target, content: 'no' } })
        .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
      expect(r.isError).toBe(true);
      expect(existsSync(target)).toBe(false);
    } finally {
      await ro.client.close();
    }
  });

  it("start_session's new conversation is named by its model, as the chat's are", async () => {
    const r = await client.callTool({
      name: 'start_session',
      arguments: { prompt: 'which day do we deploy?', model: 'openai:gpt-4o' },
    });
    expect(text(r)).toBe('The deploy is on Friday.');
    const cid = (r.structuredContent as { conversationId: string }).conversationId;
    await model.titleRequestsSeen(1);
    expect(JSON.stringify(model.titleRequests[0]!.body)).toContain('which day do we deploy?');
    // The title is saved after the tool answered: read back until it is there.
    const store = ConversationStore.forHome(home);
    await expect
      .poll(async () => (await store.load(cid)).summary.title, { timeout: 15_000 })
      .toBe('Deploy day');
  });
});
