// The guarded fetch as the MCP SDK's transport fetch: an SDK Client over Streamable HTTP to a real
// MCP server on 127.0.0.1, reached through a hostname the resolver hook pins. Proves undici's Response works
// inside the SDK transport, and that a blocked address surfaces as the SSRF error, not a hang.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { MooringError } from '../errors';
import { createGuardedFetch } from './guardedFetch';

let http: Server;
let port: number;
let requests = 0;

beforeAll(async () => {
  const handler = createMcpHandler(() => {
    const s = new McpServer({ name: 'ssrf-echo', version: '1.0.0' });
    s.registerTool(
      'echo',
      { inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } },
      async ({ text }) => ({
        content: [{ type: 'text', text }],
      }),
    );
    return s;
  });
  http = createServer(async (req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const body =
      chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
    const response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) Readable.fromWeb(response.body as never).pipe(res);
    else res.end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  port = (http.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((r) => {
      http.closeAllConnections();
      http.close(() => r());
    }),
);

const pinnedToLoopback = async () => [{ address: '127.0.0.1', family: 4 }];

describe('guarded fetch inside the MCP SDK transport', () => {
  it('connects and calls a tool through a pinned hostname when private network is allowed', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetwork: true, lookup: pinnedToLoopback });
    const client = new Client({ name: 'mooring-test', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://mcp.test:${port}/mcp`), { fetch }),
    );
    const result = await client.callTool({ name: 'echo', arguments: { text: 'through the guard' } });
    expect(result.content).toEqual([{ type: 'text', text: 'through the guard' }]);
    await client.close();
    await fetch.close();
  });

  it('refuses to connect when the hostname resolves to loopback and private network is not allowed', async () => {
    const before = requests;
    const fetch = createGuardedFetch({ lookup: pinnedToLoopback });
    const client = new Client({ name: 'mooring-test', version: '0.0.0' });
    const err = await client
      .connect(new StreamableHTTPClientTransport(new URL(`http://mcp.test:${port}/mcp`), { fetch }))
      .catch((e: unknown) => e);
    // The SDK passes the fetch's error through: the session room can show code, message and hint as they are.
    expect(err).toBeInstanceOf(MooringError);
    expect(err).toMatchObject({
      code: 'ssrf_blocked',
      message: expect.stringContaining('resolves to 127.0.0.1 (loopback)'),
    });
    expect(requests).toBe(before);
    await fetch.close();
  });
});
