// `mooring serve --http` end to end: the server runs in this process over a real core (temp
// MOORING_HOME, real server-filesystem and engine fixture) so the test can answer approvals through the
// broker like the desktop dialog does; the SDK's own client connects over Streamable HTTP on 127.0.0.1.
// Then the HTTP gate: 401 without a token, 403 on a foreign Origin or Host, remote binds refused, and the
// CLI's own `serve --http` process.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../shared/approval';
import { MooringCore } from '../../src-main/core/mooringCore';
import { startMcpHttpServer, type McpHttpServer } from '../../src-main/core/serve/httpServer';
import { generateToken } from '../../src-main/core/serve/serverTokens';
import { tempDir } from '../helpers/servers';
import { initializeBody, postMcp, serveCommandLine, watchToolList, writeHome } from './serverHelpers';

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

const rawPost = (url: string, headers: Record<string, string>) => postMcp(url, initializeBody(1), headers);

describe('mooring serve --http (in process, approvals through the broker)', () => {
  let fsRoot: string;
  let home: string;
  let core: MooringCore;
  let http: McpHttpServer;
  const full = { label: 'desktop-test', token: generateToken(), scope: {} };
  const reader = { label: 'reader', token: generateToken(), scope: { readOnly: true } };
  const clients: Client[] = [];

  async function connect(token: string, name = 'http-test-client') {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    fsRoot = tempDir('mooring-http-fs-');
    writeFileSync(join(fsRoot, 'hello.txt'), 'hello over http');
    home = writeHome(fsRoot);
    core = await MooringCore.open({ home });
    await core.start();
    http = await startMcpHttpServer({ core, port: 0, tokens: [full, reader], approvalTimeoutMs: 20_000 });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await http?.close();
    await core?.close();
  });

  it('lists and calls memory, sessions and relayed tools; the audit names the token label', async () => {
    const client = await connect(full.token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['memory_create', 'sessions_list', 'start_session', 'mcp__files__write_file']),
    );
    const created = await client.callTool({
      name: 'memory_create',
      arguments: { text: 'Ships dock at pier 7' },
    });
    const id = (created.structuredContent as { entry: { id: string } }).entry.id;
    expect(text(await client.callTool({ name: 'memory_search', arguments: { query: 'pier' } }))).toContain(
      id,
    );
    const res = await client.readResource({ uri: `mooring://memory/${id}` });
    expect((res.contents[0] as { text: string }).text).toBe('Ships dock at pier 7');
    expect(text(await client.callTool({ name: 'sessions_list', arguments: {} }))).toMatch(
      /No conversations yet/,
    );
    const r = await client.callTool({
      name: 'mcp__files__read_text_file',
      arguments: { path: join(fsRoot, 'hello.txt') },
    });
    expect(text(r)).toBe('hello over http');
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.find((a) => a.tool === 'read_text_file')).toMatchObject({ client: 'desktop-test' });
  });

  it('a destructive call raises the approval broker, waits, and is refused on deny; runs on approve', async () => {
    const client = await connect(full.token);
    const target = join(fsRoot, 'approved.txt');
    const seen: ApprovalRequest[] = [];
    const answer = (outcome: 'approve' | 'deny') => (req: ApprovalRequest) => {
      seen.push(req);
      // The desktop dialog answers later, not inside the event.
      setImmediate(() => core.approvals.answer(req.id, { outcome, decidedBy: 'user:ui' }));
    };

    const deny = answer('deny');
    core.approvals.once('requested', deny);
    const denied = await client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'denied' },
    });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toMatch(/You denied the call/);
    expect(existsSync(target)).toBe(false);
    expect(seen[0]).toMatchObject({ server: 'files', tool: 'write_file', client: 'desktop-test' });

    core.approvals.once('requested', answer('approve'));
    const ok = await client.callTool({
      name: 'mcp__files__write_file',
      arguments: { path: target, content: 'approved' },
    });
    expect(ok.isError).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('approved');
    const decisions = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((a) => a.tool === 'write_file')
      .map((a) => [a.decision, a.client]);
    expect(decisions).toEqual([
      ['deny', 'desktop-test'],
      ['approve', 'desktop-test'],
    ]);
  });

  it('a read-only token cannot see or call a destructive tool, and raises no approval', async () => {
    const client = await connect(reader.token, 'reader-client');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__files__read_text_file');
    expect(names).not.toContain('mcp__files__write_file');
    let asked = false;
    const onAsk = () => (asked = true);
    core.approvals.on('requested', onAsk);
    const target = join(fsRoot, 'reader.txt');
    const r = await client
      .callTool({ name: 'mcp__files__write_file', arguments: { path: target, content: 'x' } })
      .catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    core.approvals.off('requested', onAsk);
    expect(r.isError).toBe(true);
    expect(asked).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it('list_changed reaches the HTTP client when a server tool comes and goes', async () => {
    const client = await connect(full.token);
    const tools = watchToolList(client);
    const changed = tools.next();
    await client.callTool({ name: 'mcp__engine__add_tool', arguments: { name: 'fresh_tool' } });
    await changed;
    expect(await tools.until((n) => n.includes('mcp__engine__fresh_tool'))).toContain(
      'mcp__engine__fresh_tool',
    );
    await client.callTool({ name: 'mcp__engine__remove_tool', arguments: { name: 'fresh_tool' } });
  });

  it('refuses without a valid token (401) and on a foreign Origin or Host (403)', async () => {
    const port = new URL(http.url).port;
    expect((await rawPost(http.url, {})).status).toBe(401);
    expect((await rawPost(http.url, { authorization: 'Bearer not-a-real-token-at-all-0000' })).status).toBe(
      401,
    );
    const auth = { authorization: `Bearer ${full.token}` };
    expect((await rawPost(http.url, { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await rawPost(http.url, { ...auth, host: `evil.example:${port}` })).status).toBe(403);
    // A browser page on the loopback origin, with the token, is let through.
    expect((await rawPost(http.url, { ...auth, origin: `http://localhost:${port}` })).status).toBe(200);
  });

  it('a session opened with one token cannot be used with another', async () => {
    const opened = await postMcp(http.url, initializeBody(1, 'a'), { authorization: `Bearer ${full.token}` });
    const init = String(opened.headers['mcp-session-id']);
    const hijack = await rawPost(http.url, {
      authorization: `Bearer ${reader.token}`,
      'mcp-session-id': init,
    });
    expect(hijack.status).toBe(403);
  });

  it('refuses a non-loopback bind unless remote access is explicitly allowed', async () => {
    await expect(
      startMcpHttpServer({ core, port: 0, host: '0.0.0.0', tokens: [full] }),
    ).rejects.toMatchObject({
      code: 'usage',
      message: expect.stringMatching(/not a loopback address/),
    });
    const remote = await startMcpHttpServer({
      core,
      port: 0,
      host: '0.0.0.0',
      tokens: [full],
      allowRemote: true,
    });
    try {
      const port = new URL(remote.url).port;
      expect((await rawPost(`http://127.0.0.1:${port}/mcp`, {})).status).toBe(401);
    } finally {
      await remote.close();
    }
  });
});

describe('mooring serve --http (the CLI process)', () => {
  function run(args: string[], home: string) {
    const child = spawn(process.execPath, [...serveCommandLine(), 'serve', ...args], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let signal: NodeJS.Signals | null = null;
    const exited = new Promise<number>((resolve) =>
      child.on('close', (code, killedBy) => {
        signal = killedBy;
        resolve(code ?? -1);
      }),
    );
    /** The first line it prints (the URL and token), as soon as it is there. */
    const firstLine = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.slice(0, stdout.indexOf('\n'))));
      void exited.then((code) => reject(new Error(`mooring serve exited (${code}): ${stderr}`)));
    });
    firstLine.catch(() => undefined); // a run that is meant to fail never prints one
    return { child, exited, firstLine, err: () => `${stderr}${signal ? `\n(ended by ${signal})` : ''}` };
  }

  it('prints the URL and a generated token once, serves with it, and stops cleanly on SIGTERM', async () => {
    const home = tempDir('mooring-http-cli-');
    const p = run(['--http', '0', '--json', '--label', 'script'], home);
    const { url, token, label } = JSON.parse(await p.firstLine);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(label).toBe('script');
    expect(token.length).toBeGreaterThanOrEqual(32);
    const client = new Client({ name: 'cli-http', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory_search');
    await client.close();
    p.child.kill('SIGTERM');
    expect(await p.exited, p.err()).toBe(0); // a clean stop: sessions closed through withCore
  });

  it('refuses --host 0.0.0.0 without --allow-remote, with a hint', async () => {
    const p = run(['--http', '0', '--host', '0.0.0.0'], tempDir('mooring-http-cli-'));
    expect(await p.exited).toBe(2);
    expect(p.err()).toMatch(/not a loopback address/);
    expect(p.err()).toMatch(/--allow-remote/);
  });
});
