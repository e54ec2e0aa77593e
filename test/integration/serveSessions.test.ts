// `mooring serve --http` keeps its sessions bounded (ARCHITECTURE.md, "The core, by room": serve/): real
// `node bin/mooring.mjs serve --http 0` processes with three tokens, a cap of 40 sessions per token and 70 in
// all. Many `initialize` requests get 503 with Retry-After and a JSON-RPC error that says what to do once past
// the caps; idle sessions close (their id then gets 404) and free their place; with a 1 s idle time, rounds
// of hundreds of sessions leave the process's memory where it was (its resident size, loosely, and its heap
// after a collection, which test/fixtures/heapProbe.cjs reports on a signal). In process: however many
// sessions are open, the core has one listener for them.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { startMcpHttpServer } from '../../src-main/core/serve/httpServer';
import { generateToken } from '../../src-main/core/serve/serverTokens';
import { ROOT, tempDir } from '../helpers/servers';
import { initializeBody, postMcp, type McpReply } from './serverHelpers';

const BIN = join(ROOT, 'bin/mooring.mjs');
const HEAP_PROBE = join(ROOT, 'test/fixtures/heapProbe.cjs');

type Reply = McpReply;

const post = (url: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  postMcp(url, body, { authorization: `Bearer ${token}`, ...headers });

let nextId = 1;
const initialize = (url: string, token: string) => post(url, token, initializeBody(nextId++, 'flood'));

/** The child's resident memory in MB (Linux /proc). */
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Initializes until the server refuses; returns the session ids it opened and the refusal. */
async function fill(url: string, token: string): Promise<{ ids: string[]; refusal: Reply }> {
  const ids: string[] = [];
  for (;;) {
    const r = await initialize(url, token);
    if (r.status !== 200) return { ids, refusal: r };
    ids.push(String(r.headers['mcp-session-id']));
    if (ids.length > 100) throw new Error('no cap: 100 sessions opened for one token');
  }
}

/** Opens sessions until refused, or 80 of them (with a 1 s idle time, the first may close meanwhile). */
async function flood(url: string, token: string): Promise<void> {
  for (let i = 0; i < 80 && (await initialize(url, token)).status === 200; i++);
}

/**
 * Waits until `token` may open a session again (an idle one was closed), as a well-behaved client does:
 * each refusal's Retry-After says when a place frees up, and the next try comes then.
 */
async function untilAdmitted(url: string, token: string): Promise<string> {
  for (;;) {
    const r = await initialize(url, token);
    if (r.status === 200) return String(r.headers['mcp-session-id']);
    expect(r.status).toBe(503);
    const seconds = Number(r.headers['retry-after']);
    expect(seconds).toBeGreaterThanOrEqual(1);
    await new Promise((res) => setTimeout(res, seconds * 1000));
  }
}

const tokens = ['alpha', 'beta', 'gamma'].map((label) => ({ label, token: generateToken() }));
const [alpha, beta, gamma] = tokens.map((t) => t.token) as [string, string, string];

/** `mooring serve --http 0` with the three tokens, 40 sessions per token, 70 in all, this idle time. */
async function startServe(idleSeconds: number) {
  const home = tempDir('mooring-sessions-home-');
  const tokenFile = join(home, 'tokens.json');
  writeFileSync(tokenFile, JSON.stringify({ tokens }), { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '-r',
      HEAP_PROBE,
      BIN,
      'serve',
      '--http',
      '0',
      '--json',
      '--token-file',
      tokenFile,
      '--max-sessions',
      '70',
      '--max-sessions-per-token',
      '40',
      '--session-idle',
      String(idleSeconds),
    ],
    {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const first = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  if (first.done) throw new Error(`mooring serve printed nothing: ${stderr}`);
  return {
    child,
    url: (JSON.parse(first.value as string) as { url: string }).url,
    /** The heap after a full collection, in MB (the process answers SIGUSR2 through the heap probe). */
    async heapAfterGcMb() {
      const seen = stderr.length;
      const said = new Promise<number>((resolve) => {
        const onData = () => {
          const m = /heap-used (\d+)\n/.exec(stderr.slice(seen));
          if (!m) return;
          child.stderr.off('data', onData);
          resolve(Number(m[1]) / 1024 / 1024);
        };
        child.stderr.on('data', onData);
      });
      child.kill('SIGUSR2');
      return said;
    },
  };
}

describe('mooring serve --http: session caps and idle expiry (real process)', () => {
  let serve: Awaited<ReturnType<typeof startServe>>;
  let url: string;
  // Longer than filling the caps takes on a loaded machine, so none closes while the caps are counted.
  beforeAll(async () => {
    serve = await startServe(15);
    url = serve.url;
  }, 60_000);
  afterAll(() => {
    if (serve?.child.exitCode === null) serve.child.kill('SIGTERM');
  });

  it('refuses past the per-token and the total cap with 503, Retry-After and what to do', async () => {
    const a = await fill(url, alpha);
    expect(a.ids).toHaveLength(40);
    expect(a.refusal.status).toBe(503);
    expect(Number(a.refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const err = JSON.parse(a.refusal.body) as { id: unknown; error: { code: number; message: string } };
    expect(err.id).toBe(nextId - 1); // the refused initialize's own id
    expect(err.error.code).toBe(-32000);
    expect(err.error.message).toMatch(/Too many open MCP sessions for token "alpha": 40 of 40\./);
    expect(err.error.message).toMatch(/HTTP DELETE with their Mcp-Session-Id/);

    const b = await fill(url, beta);
    expect(b.ids).toHaveLength(30); // 70 in all
    expect(JSON.parse(b.refusal.body).error.message).toMatch(
      /Mooring has too many open MCP sessions: 70 of 70/,
    );
    const c = await initialize(url, gamma);
    expect(c.status).toBe(503);

    // Idle for the 15 s idle time, they close; a closed session's id is 404 and its place is free again.
    const fresh = await untilAdmitted(url, gamma);
    const stale = await post(
      url,
      alpha,
      { jsonrpc: '2.0', id: nextId++, method: 'tools/list', params: {} },
      { 'mcp-session-id': a.ids[0]!, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(stale.status).toBe(404);
    expect(JSON.parse(stale.body).error.message).toMatch(/initialize again/);
    expect(fresh).not.toBe(a.ids[0]);
  });
});

describe('mooring serve --http: memory after thousands of sessions (real process)', () => {
  let serve: Awaited<ReturnType<typeof startServe>>;
  let url: string;
  beforeAll(async () => {
    serve = await startServe(1);
    url = serve.url;
  }, 60_000);
  afterAll(() => {
    if (serve?.child.exitCode === null) serve.child.kill('SIGTERM');
  });

  it('rounds of thousands of sessions leave memory where it was', async () => {
    const pid = serve.child.pid!;
    const samples: number[] = [];
    const heaps: number[] = [];
    // Each round opens 70 sessions, lets them go idle and close; the resident size after each round.
    for (let i = 0; i < 25; i++) {
      for (const token of [alpha, beta]) await flood(url, token);
      await untilAdmitted(url, gamma);
      samples.push(rssMb(pid));
      if (i === 4 || i === 24) heaps.push(await serve.heapAfterGcMb());
    }
    const trace = `RSS after each round (MB): ${samples.map((m) => m.toFixed(0)).join(' ')}; heap after GC: ${heaps.map((m) => m.toFixed(1)).join(' → ')} MB`;
    // What 1,400 closed sessions still hold once collected: kept alive, even without their transports,
    // they held ~26 KB each (measured: 37 MB more).
    expect(heaps[1]! - heaps[0]!, trace).toBeLessThan(8);
    // Garbage collection makes a sawtooth, so compare the lows, loosely.
    const early = Math.min(...samples.slice(2, 7));
    const late = Math.min(...samples.slice(-5));
    expect(late - early, trace).toBeLessThan(80);
  }, 300_000);
});

describe('sessions share one listener on the core (in process)', () => {
  let core: MooringCore;
  beforeAll(async () => {
    core = await MooringCore.open({ home: tempDir('mooring-sessions-core-') });
  });
  afterAll(() => core?.close());

  it('ten open sessions add at most one listener to the tools service, and none stays after close', async () => {
    const token = { label: 'many', token: generateToken(), scope: {} };
    const http = await startMcpHttpServer({ core, port: 0, tokens: [token] });
    const before = core.tools.listenerCount('changed') + core.tools.listenerCount('toolCall');
    const clients: Client[] = [];
    for (let i = 0; i < 10; i++) {
      const client = new Client({ name: `c${i}`, version: '1' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), {
          requestInit: { headers: { authorization: `Bearer ${token.token}` } },
        }),
      );
      await client.listTools();
      clients.push(client);
    }
    expect(http.sessions()).toHaveLength(10);
    const during = core.tools.listenerCount('changed') + core.tools.listenerCount('toolCall');
    expect(during - before).toBeLessThanOrEqual(1);
    await Promise.all(clients.map((c) => c.close()));
    await http.close();
    expect(core.tools.listenerCount('changed') + core.tools.listenerCount('toolCall')).toBe(before);
  });
});
