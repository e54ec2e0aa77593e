// One tool with a broken inputSchema must not hide the server's other tools (the SDK's strict
// tools/list validation would reject the whole list). A raw JSON-RPC peer plays the server.
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ServerConfigSchema } from '@shared/config';
import { SessionActor } from './sessionActor';

function rawServer(tools: unknown[]) {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (m: JSONRPCMessage) => {
    if (!('method' in m) || !('id' in m)) return;
    const reply = (result: unknown) =>
      void server.send({ jsonrpc: '2.0', id: m.id, result } as JSONRPCMessage);
    if (m.method === 'initialize')
      reply({
        protocolVersion: '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'raw', version: '1' },
      });
    else if (m.method === 'tools/list') reply({ tools });
    else if (m.method === 'tools/call')
      reply({ content: [{ type: 'text', text: `called ${(m.params as { name: string }).name}` }] });
    // Like any JSON-RPC peer (and the era probe's `server/discover`, which a 2025 server does not know).
    else
      void server.send({
        jsonrpc: '2.0',
        id: m.id,
        error: { code: -32601, message: 'Method not found' },
      } as JSONRPCMessage);
  };
  void server.start();
  return client;
}

describe('lenient tool listing', () => {
  it('keeps the good tools and repairs a tool without a valid inputSchema', async () => {
    const a = new SessionActor({
      config: ServerConfigSchema.parse({ name: 'raw', command: 'node' }),
      transportFactory: async () =>
        rawServer([
          { name: 'good', inputSchema: { type: 'object', properties: { x: { type: 'number' } } } },
          { name: 'no_schema' },
          { name: 'string_schema', inputSchema: 'nope' },
          { name: 'untyped', inputSchema: { properties: { q: { type: 'string' } } } },
        ]),
    });
    await a.start();
    expect(a.tools().map((t) => t.name)).toEqual(['good', 'no_schema', 'string_schema', 'untyped']);
    expect(a.tool('no_schema')!.definition.inputSchema).toEqual({ type: 'object' });
    expect(a.logs.toArray().filter((l) => /no valid inputSchema/.test(l.text))).toHaveLength(2);
    const r = await a.tool('untyped')!.call({ q: 'x' });
    expect(r.content).toEqual([{ type: 'text', text: 'called untyped' }]);
    await a.close();
  });
});
