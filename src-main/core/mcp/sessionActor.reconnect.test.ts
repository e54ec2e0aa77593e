// Backoff and budget refresh with fake timers, on an in-process server over a linked transport pair
// (the MCP TypeScript SDK's own pattern for protocol tests).
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import type { SessionStatus } from '@shared/session';
import { backoffDelay, DEFAULT_BACKOFF } from './backoff';
import { SessionActor } from './sessionActor';
import type { TransportFactory } from './transportFactory';

function harness() {
  const h = {
    connects: 0,
    failing: false,
    serverSide: undefined as InMemoryTransport | undefined,
    factory: (async () => {
      h.connects++;
      if (h.failing) throw new Error('connection refused (simulated)');
      const [client, server] = InMemoryTransport.createLinkedPair();
      const mcp = new McpServer({ name: 'inproc', version: '1' });
      mcp.registerTool('ping', { description: 'p' }, async () => ({
        content: [{ type: 'text', text: 'pong' }],
      }));
      await mcp.connect(server);
      h.serverSide = server;
      return client;
    }) as TransportFactory,
  };
  return h;
}

const config = ServerConfigSchema.parse({ name: 'inproc', command: 'node' });
const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

describe('reconnect backoff (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('no delay before the first attempt, then 0.5 s → 8 s cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(DEFAULT_BACKOFF, n))).toEqual([
      0, 500, 1000, 2000, 4000, 8000, 8000,
    ]);
  });

  it('tries at once, then 4 more times with exponential delays, then fails', async () => {
    const h = harness();
    const a = new SessionActor({ config, transportFactory: h.factory });
    const seen: SessionStatus[] = [];
    a.on('status', (s) => seen.push(s));
    await a.start();
    expect(h.connects).toBe(1);
    const handle = a.tool('ping');
    h.failing = true;
    await h.serverSide!.close();
    await flush();
    // Attempt 1 started with no time passing: no timer stood between the break and the reconnect.
    expect(h.connects, 'attempt 1 starts at once').toBe(2);
    expect(a.status()).toMatchObject({ state: 'reconnecting', attempt: 2, maxAttempts: 5 });
    for (const [i, delay] of [500, 1000, 2000, 4000].entries()) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(h.connects, `attempt ${i + 2} must not start before ${delay} ms`).toBe(2 + i);
      await vi.advanceTimersByTimeAsync(1);
      await flush();
      expect(h.connects).toBe(3 + i);
    }
    expect(a.status().state).toBe('failed');
    expect(a.status().error?.message).toMatch(/simulated/);
    expect(seen.filter((s) => s.state === 'reconnecting').map((s) => s.attempt)).toEqual([1, 2, 3, 4, 5]);
    // Self-healing on demand: the next call reconnects with a fresh budget.
    h.failing = false;
    const r = await a.tool('ping')!.call({});
    expect(r.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(a.tool('ping')).toBe(handle);
    await a.close();
  });

  it('a server that comes back is reconnected with no wait at all', async () => {
    const h = harness();
    const a = new SessionActor({ config, transportFactory: h.factory });
    await a.start();
    await h.serverSide!.close();
    // The handshake's own steps only: the clock does not move.
    await vi.advanceTimersByTimeAsync(0);
    expect(a.status()).toMatchObject({ state: 'ready', metrics: { reconnects: 1 } });
    expect(h.connects).toBe(2);
    expect((await a.tool('ping')!.call({})).content).toEqual([{ type: 'text', text: 'pong' }]);
    await a.close();
  });

  it('a session stable for 60 s earns a fresh budget; an unstable one does not', async () => {
    const h = harness();
    const a = new SessionActor({ config, transportFactory: h.factory });
    await a.start();
    // Break 1: the immediate attempt and the one after 0.5 s fail, the one after 1 s more succeeds.
    h.failing = true;
    await h.serverSide!.close();
    await vi.advanceTimersByTimeAsync(500);
    h.failing = false;
    await vi.advanceTimersByTimeAsync(1000);
    await flush();
    expect(a.status().state).toBe('ready');
    expect(a.status().metrics.reconnects).toBe(1);
    // Break 2 right away: the budget continues (attempt 4, after 2 s).
    h.failing = true;
    await h.serverSide!.close();
    await flush();
    expect(a.status()).toMatchObject({ state: 'reconnecting', attempt: 4 });
    h.failing = false;
    await vi.advanceTimersByTimeAsync(2000);
    await flush();
    expect(a.status().state).toBe('ready');
    // Stable for 60 s: break 3 starts again at attempt 1, at once.
    await vi.advanceTimersByTimeAsync(60_000);
    h.failing = true;
    await h.serverSide!.close();
    await flush();
    expect(a.status()).toMatchObject({ state: 'reconnecting', attempt: 2 });
    await a.close();
    expect(a.status().state).toBe('closed');
  });

  it('remote sessions send a keepalive tools/list every 180 s; stdio sessions never', async () => {
    const h = harness();
    const remote = ServerConfigSchema.parse({
      name: 'remote',
      transport: 'http',
      url: 'http://127.0.0.1:1/mcp',
    });
    for (const [c, expected] of [
      [remote, 2],
      [config, 0],
    ] as const) {
      let lists = 0;
      const a = new SessionActor({ config: c, transportFactory: h.factory });
      await a.start();
      const orig = h.serverSide!.onmessage!;
      h.serverSide!.onmessage = (m, extra) => {
        if ('method' in m && m.method === 'tools/list') lists++;
        orig(m, extra);
      };
      await vi.advanceTimersByTimeAsync(180_000 * 2);
      await flush();
      expect(lists, `${c.transport} keepalives`).toBe(expected);
      await a.close();
    }
  });
});
