// Every request goes through the session's one request handler, not only tool calls: a prompts/get that
// hangs gets the session's own timeout, a resources/read the person cancels is aborted (and the server is
// told), both appear in the traffic trace with the session's secrets masked, and both are counted. An
// in-process server on the v2 server SDK over a linked transport pair.
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ServerConfigSchema } from '@shared/config';
import { SessionActor } from './sessionActor';
import type { TransportFactory } from './transportFactory';

const SECRET = 'sk-live-4b1e9f0c2d';
const redact = (text: string) => text.replaceAll(SECRET, '•••');

function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A server whose prompt and resource never answer; it hears when a request is cancelled. */
function hangingServer() {
  const seen = { prompt: signal(), read: signal(), readCancelled: signal() };
  const factory: TransportFactory = async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    const mcp = new McpServer({ name: 'slowpoke', version: '1' });
    mcp.registerPrompt('stuck', { argsSchema: z.object({ token: z.string() }) }, () => {
      seen.prompt.resolve();
      return new Promise(() => undefined);
    });
    mcp.registerResource('stuck', 'slow://stuck', {}, (_uri, ctx) => {
      seen.read.resolve();
      ctx.mcpReq.signal.addEventListener('abort', () => seen.readCancelled.resolve(), { once: true });
      return new Promise(() => undefined);
    });
    await mcp.connect(server);
    return client;
  };
  return { seen, factory };
}

let actor: SessionActor | undefined;
afterEach(async () => {
  await actor?.close();
  actor = undefined;
});

function session(factory: TransportFactory) {
  actor = new SessionActor({
    // The session's timeout: 1 s, shorter than the 30 s a prompt or a read gets by default.
    config: ServerConfigSchema.parse({ name: 'slowpoke', command: 'node', timeoutSeconds: 1 }),
    transportFactory: factory,
    redact,
  });
  return actor;
}

const rpcLines = (a: SessionActor) =>
  a.logs
    .toArray()
    .filter((l) => l.source === 'rpc')
    .map((l) => l.text);

describe('the session request handler', () => {
  it('gives a hanging prompts/get the session timeout, traces it with secrets masked, and counts it', async () => {
    const { seen, factory } = hangingServer();
    const a = session(factory);
    await a.start();
    a.setTracing(true);
    const get = a.requests.getPrompt({ name: 'stuck', arguments: { token: SECRET } });
    await seen.prompt.promise;
    await expect(get).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('did not answer within 1 s'),
    });
    const sent = rpcLines(a).find((t) => t.startsWith('→') && t.includes('"prompts/get"'));
    expect(sent).toContain('"token":"•••"');
    expect(rpcLines(a).join('\n')).not.toContain(SECRET);
    // The SDK tells the server it stopped waiting.
    expect(rpcLines(a).some((t) => t.startsWith('→') && t.includes('notifications/cancelled'))).toBe(true);
    expect(a.status().metrics.requests?.['prompts/get']).toEqual({ calls: 1, errors: 1 });
    // Tool calls are counted apart, as before.
    expect(a.status().metrics.calls).toBe(0);
  });

  it('aborts a resources/read the caller cancels; the server hears the cancellation', async () => {
    const { seen, factory } = hangingServer();
    const a = session(factory);
    await a.start();
    a.setTracing(true);
    const ac = new AbortController();
    const read = a.requests.readResource({ uri: 'slow://stuck' }, { signal: ac.signal, timeoutMs: 60_000 });
    await seen.read.promise;
    ac.abort();
    await expect(read).rejects.toMatchObject({ code: 'cancelled' });
    await seen.readCancelled.promise;
    expect(rpcLines(a).some((t) => t.startsWith('→') && t.includes('"resources/read"'))).toBe(true);
    expect(a.status().metrics.requests?.['resources/read']).toEqual({ calls: 1, errors: 1 });
  });

  it('masks a secret in the error a request throws', async () => {
    const { factory } = hangingServer();
    const a = session(factory);
    await a.start();
    // The server refuses an unknown prompt; the name (which holds the secret) is in the message.
    const err = await a.requests.getPrompt({ name: `nope-${SECRET}` }).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'protocol_error' });
    expect((err as Error).message).toContain('nope-•••');
    expect((err as Error).message).not.toContain(SECRET);
  });

  it('a request made while the session starts waits for it, within its own timeout', async () => {
    const { factory } = hangingServer();
    const a = session(factory);
    const starting = a.start();
    const list = a.requests.listPrompts();
    await starting;
    expect((await list).prompts.map((p) => p.name)).toEqual(['stuck']);
  });
});
