// `mooring serve` answers both protocol eras (docs/decisions/006-protocol-eras.md): an SDK client pinned to
// 2026-07-28 gets the stateless protocol, one on 2025-11-25 the session protocol, and both list and call the
// relayed tools, over `--stdio` (the real CLI process) and `--http` (in this process, so the test can check
// the gate). The 2026 client passes the same gate as a 2025 one: the bearer token, the Host/Origin checks,
// the token's scope, the audit line with the token's label; its per-request servers stop following the
// core when their request ends.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { startMcpHttpServer, type McpHttpServer } from '../../src-main/core/serve/httpServer';
import { ServedEvents } from '../../src-main/core/serve/servedEvents';
import { generateToken } from '../../src-main/core/serve/serverTokens';
import { tempDir, waitFor } from '../helpers/servers';
import { postMcp, serveCommandLine, writeHome } from './serverHelpers';

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

const ERAS = [
  ['2026-07-28', { versionNegotiation: { mode: { pin: '2026-07-28' } } }],
  ['2025-11-25', {}],
] as const;

let fsRoot: string;
let home: string;
beforeAll(() => {
  fsRoot = tempDir('mooring-serve-eras-fs-');
  writeFileSync(join(fsRoot, 'hello.txt'), 'hello from both eras');
  home = writeHome(fsRoot);
});

async function listAndCall(client: Client, era: string) {
  expect(client.getNegotiatedProtocolVersion()).toBe(era);
  const names = (await client.listTools()).tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['memory_search', 'mcp__files__read_text_file']));
  const r = await client.callTool({
    name: 'mcp__files__read_text_file',
    arguments: { path: join(fsRoot, 'hello.txt') },
  });
  expect(text(r)).toBe('hello from both eras');
}

describe.each(ERAS)('an SDK client on %s through mooring serve --stdio', (era, options) => {
  it('lists and calls the relayed tools', async () => {
    const client = new Client({ name: `stdio-${era}`, version: '1.0.0' }, options);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...serveCommandLine(), 'serve', '--stdio'],
        env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    try {
      await listAndCall(client, era);
    } finally {
      await client.close();
    }
    // The audit names the client by the name it gave (2025: initialize; 2026: each request's _meta).
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toContain(`"client":"stdio-${era}"`);
  });
});

describe('mooring serve --http, both eras', () => {
  let core: MooringCore;
  let http: McpHttpServer;
  let httpHome: string;
  let events: ServedEvents;
  const full = { label: 'eras-full', token: generateToken(), scope: {} };
  const reader = { label: 'eras-reader', token: generateToken(), scope: { readOnly: true } };
  const clients: Client[] = [];

  beforeAll(async () => {
    httpHome = writeHome(fsRoot);
    core = await MooringCore.open({ home: httpHome });
    await core.start();
    events = new ServedEvents(core.tools);
    http = await startMcpHttpServer({
      core,
      events,
      port: 0,
      tokens: [full, reader],
      approvalTimeoutMs: 20_000,
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await http?.close();
    await core?.close();
  });

  const connect = async (token: string, name: string, options: object) => {
    const client = new Client({ name, version: '1.0.0' }, options);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  };

  it.each(ERAS)('a client on %s lists and calls the relayed tools', async (era, options) => {
    await listAndCall(await connect(full.token, `http-${era}`, options), era);
  });

  it('a 2026 client keeps no session, and each request stops following the core when it ends', async () => {
    // The open 2025 sessions follow the core, and the 2026 entry once, from its first request on (an earlier
    // test may have made it): five requests leave at most that one more follower, never five.
    const before = events.size;
    const client = await connect(full.token, 'http-modern-stateless', ERAS[0][1]);
    for (let i = 0; i < 5; i++) await client.listTools(undefined, { cacheMode: 'bypass' });
    expect(http.sessions().map((s) => s.client)).not.toContain('http-modern-stateless');
    await waitFor(
      () => events.size === before || events.size === before + 1,
      'the per-request servers to stop following the core',
    );
  });

  it("a 2026 client gets the token's scope, and the audit names the token's label", async () => {
    const client = await connect(reader.token, 'modern-reader', ERAS[0][1]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__files__read_text_file');
    expect(names).not.toContain('mcp__files__write_file');
    await client.callTool({
      name: 'mcp__files__read_text_file',
      arguments: { path: join(fsRoot, 'hello.txt') },
    });
    const audit = readFileSync(join(httpHome, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool?: string; client?: string });
    expect(audit.filter((a) => a.tool === 'read_text_file').map((a) => a.client)).toContain('eras-reader');
  });

  it('a 2026 request without the token is refused (401), and on a foreign Host (403)', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    const modernHeaders = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };
    const post = async (headers: Record<string, string>) =>
      (await postMcp(http.url, body, { ...modernHeaders, ...headers })).status;
    expect(await post({})).toBe(401);
    expect(await post({ authorization: `Bearer ${full.token}`, host: 'evil.example' })).toBe(403);
    expect(await post({ authorization: `Bearer ${full.token}` })).toBe(200);
  });
});
