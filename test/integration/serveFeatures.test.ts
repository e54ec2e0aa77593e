// `mooring serve` relays what its connected servers offer beyond tools (serve/servedFeatures.ts): prompts
// named like tools, resources under mooring://servers/<server>/, completions of prompt arguments and the
// servers' log messages — to a 2025-11-25 client and (except unsolicited logs, which that revision does
// not have) a 2026-07-28 one. The connected server is the real server-everything; a scoped token sees only
// the servers its tool set reaches.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { startMcpHttpServer, type McpHttpServer } from '../../src-main/core/serve/httpServer';
import { generateToken } from '../../src-main/core/serve/serverTokens';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVERYTHING, tempDir } from '../helpers/servers';

let core: MooringCore;
let http: McpHttpServer;
const full = { label: 'features', token: generateToken(), scope: {} };
const other = { label: 'other-tools', token: generateToken(), scope: { tools: ['mcp__nothing__*'] } };
const clients: Client[] = [];

beforeAll(async () => {
  const home = tempDir('mooring-serve-features-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({ servers: [{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
  );
  core = await MooringCore.open({ home });
  await core.start();
  http = await startMcpHttpServer({ core, port: 0, tokens: [full, other] });
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await http?.close();
  await core?.close();
});

async function connect(token: string, modern: boolean): Promise<Client> {
  const client = new Client(
    { name: modern ? 'features-2026' : 'features-2025', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

describe.each([
  ['2025-11-25', false],
  ['2026-07-28', true],
] as const)('a %s client', (_era, modern) => {
  it("lists and gets the servers' prompts, named like tools, and completes their arguments", async () => {
    const client = await connect(full.token, modern);
    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['mcp__every__simple-prompt', 'mcp__every__args-prompt']));
    const got = await client.getPrompt({ name: 'mcp__every__args-prompt', arguments: { city: 'Lisbon' } });
    expect(JSON.stringify(got.messages)).toContain('Lisbon');
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'mcp__every__completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    expect(done.completion.values).toEqual(['Engineering']);
  });

  it("lists and reads the servers' resources under mooring://servers/<server>/", async () => {
    const client = await connect(full.token, modern);
    const resources = (await client.listResources()).resources;
    const relayed = resources.find((r) =>
      r.uri.startsWith('mooring://servers/every/demo://resource/static/'),
    );
    expect(relayed, JSON.stringify(resources.map((r) => r.uri))).toBeTruthy();
    const read = await client.readResource({ uri: relayed!.uri });
    expect(read.contents[0]!.uri).toBe(relayed!.uri);
    expect(JSON.stringify(read.contents[0])).not.toBe('{}');
  });
});

it('a token whose tool set leaves a server out sees none of its prompts or resources', async () => {
  const client = await connect(other.token, false);
  expect((await client.listPrompts()).prompts).toEqual([]);
  expect((await client.listResources()).resources.some((r) => r.uri.startsWith('mooring://servers/'))).toBe(
    false,
  );
  await expect(client.getPrompt({ name: 'mcp__every__simple-prompt' })).rejects.toThrow(/not found/);
});

it("a 2025 client that sets a level gets the servers' log messages, with the server as the logger", async () => {
  const client = await connect(full.token, false);
  const got = new Promise<{ logger?: string }>((resolve) =>
    client.setNotificationHandler('notifications/message', (n) => resolve(n.params)),
  );
  await client.setLoggingLevel('debug');
  // The toggle is not annotated read-only: the person approves it, as in the app's dialog.
  const approve = (r: { id: string }) =>
    core.approvals.answer(r.id, { outcome: 'approve', decidedBy: 'user:ui' });
  core.approvals.on('requested', approve);
  try {
    await client.callTool({ name: 'mcp__every__toggle-simulated-logging', arguments: {} });
    expect((await got).logger).toBe('every');
    await client.callTool({ name: 'mcp__every__toggle-simulated-logging', arguments: {} });
  } finally {
    core.approvals.off('requested', approve);
  }
});
