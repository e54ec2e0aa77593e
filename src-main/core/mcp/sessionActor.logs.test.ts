// What a session writes to its log for the Logs view, on an in-process server over a linked transport
// pair: lifecycle lines, the JSON-RPC traffic only on request, and a break's reason that never quotes
// stderr from before the session was up.
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { splitErrorDetails } from '@shared/errors';
import { SessionActor } from './sessionActor';
import type { TransportFactory } from './transportFactory';

const config = ServerConfigSchema.parse({ name: 'inproc', command: 'node', args: ['server.js'] });

function harness() {
  const h = {
    serverSide: undefined as InMemoryTransport | undefined,
    stderr: undefined as ((line: string) => void) | undefined,
    factory: (async (_config, hooks) => {
      h.stderr = hooks.onStderr;
      hooks.onStderr?.('BANNER: server starting, please wait');
      const [client, server] = InMemoryTransport.createLinkedPair();
      const mcp = new McpServer({ name: 'inproc', version: '1.2.3' });
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

const actorFor = (h: ReturnType<typeof harness>) =>
  new SessionActor({
    config,
    transportFactory: h.factory,
    // No reconnect: the break's reason is what this test reads.
    backoff: { maxAttempts: 0, baseMs: 1, capMs: 1, stableMs: 60_000 },
  });

describe('session log lines', () => {
  it('starting, handshake with server and protocol, tools listed; traffic only while recording', async () => {
    const h = harness();
    const a = actorFor(h);
    await a.start();
    const text = () => a.logs.toArray().map((l) => `${l.source} ${l.text}`);
    expect(text()).toContain('host starting: node server.js');
    expect(
      text().some((t) =>
        /^host handshake done in \d+ ms: inproc 1\.2\.3, protocol \d{4}-\d\d-\d\d \(initialize handshake\)$/.test(
          t,
        ),
      ),
    ).toBe(true);
    expect(text()).toContain('host tools listed: 1 (ping)');
    expect(a.status().connectMs).toBeGreaterThanOrEqual(0);
    expect(text().some((t) => t.startsWith('rpc '))).toBe(false);
    a.setTracing(true);
    await a.refreshTools();
    a.setTracing(false);
    await a.refreshTools();
    const rpc = a.logs.toArray().filter((l) => l.source === 'rpc');
    expect(rpc.map((l) => l.text.slice(0, 2))).toEqual(['→ ', '← ']);
    expect(rpc[0]!.text).toContain('"method":"tools/list"');
    expect(rpc[0]!.text).toContain('"jsonrpc":"2.0"');
    expect(rpc[1]!.text).toContain('"name":"ping"');
    await a.close();
    expect(text().at(-1)).toBe('host closed');
  });

  it("a break's reason quotes stderr written while the session was up, never the start-up banner", async () => {
    const h = harness();
    const a = actorFor(h);
    await a.start();
    await h.serverSide!.close();
    await new Promise<void>((r) => (a.status().state === 'failed' ? r() : a.once('status', () => r())));
    expect(a.status().error!.message).toBe('The connection to "inproc" broke');

    const hb = harness();
    const c = actorFor(hb);
    await c.start();
    hb.stderr!('panic: out of memory');
    await hb.serverSide!.close();
    await new Promise<void>((r) => (c.status().state === 'failed' ? r() : c.once('status', () => r())));
    expect(c.status().error!.message).toBe('The connection to "inproc" broke: panic: out of memory');
    await Promise.all([a.close(), c.close()]);
  });

  it('the headline is the line that reads like the reason, not a later notice; the rest follows it', async () => {
    const h = harness();
    const a = actorFor(h);
    await a.start();
    h.stderr!('FATAL: the index file is corrupt');
    h.stderr!('No valid root directories provided by the client');
    await h.serverSide!.close();
    await new Promise<void>((r) => (a.status().state === 'failed' ? r() : a.once('status', () => r())));
    const { summary, details } = splitErrorDetails(a.status().error!.message);
    expect(summary).toBe('The connection to "inproc" broke: FATAL: the index file is corrupt');
    expect(details).toBe(
      'FATAL: the index file is corrupt\nNo valid root directories provided by the client',
    );
    await a.close();
  });

  it('a failed start is written to the Logs with its reason; a give-up says so on the card too', async () => {
    const refused = new SessionActor({
      config,
      transportFactory: (async () => {
        throw Object.assign(new Error('spawn node ENOENT'), { code: 'ENOENT' });
      }) as TransportFactory,
      backoff: { maxAttempts: 0, baseMs: 1, capMs: 1, stableMs: 60_000 },
    });
    await expect(refused.start()).rejects.toThrow(/not found on PATH/);
    const lines = refused.logs.toArray().filter((l) => l.level === 'error');
    expect(lines.map((l) => l.text)).toEqual([
      expect.stringMatching(/^could not start: Command "node" was not found on PATH \(Install it/),
    ]);
    await refused.close();

    // Up once, then every reconnect refused: the card's error ends with the give-up.
    const h = harness();
    let calls = 0;
    const flaky = new SessionActor({
      config,
      transportFactory: ((c, hooks) => {
        calls++;
        if (calls > 1) throw new Error('the server is gone');
        return h.factory(c, hooks);
      }) as TransportFactory,
      backoff: { maxAttempts: 1, baseMs: 1, capMs: 1, stableMs: 60_000 },
    });
    await flaky.start();
    await h.serverSide!.close();
    await new Promise<void>((r) => {
      const check = () => (flaky.status().state === 'failed' ? r() : flaky.once('status', check));
      check();
    });
    expect(splitErrorDetails(flaky.status().error!.message).summary).toMatch(
      /\(gave up after 1 reconnect attempts\)$/,
    );
    expect(flaky.logs.toArray().some((l) => l.text === 'gave up after 1 reconnect attempts')).toBe(true);
    await flaky.close();
  });
});
