// The baseline of `mooring serve --stdio` (bench/suites/serveIdle.ts): an MCP server on the raw SDK that
// relays the tools of the same stdio servers: one client per server, every tool listed under
// `server__tool` with its schema and annotations, calls forwarded. No safety, catalog or audit: what the
// SDK alone costs to hold the same sessions and serve them.
// Usage: node rawRelay.mjs '[{"name":"a","script":"/path/server.js","args":["stdio"]}, …]'
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpServer, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { rawCommand } from '../lib/paths';

interface Spec {
  name: string;
  script: string;
  args?: string[];
}
type Args = Record<string, unknown>;

/** The server's JSON schema as advertised, the arguments passed on unchecked (the server checks them). */
const passThrough = (schema: Record<string, unknown>): StandardSchemaWithJSON<Args> => ({
  '~standard': {
    version: 1,
    vendor: 'bench-raw-relay',
    validate: (value: unknown) => ({ value: (value ?? {}) as Args }),
    jsonSchema: { input: () => schema, output: () => schema },
  },
});

const specs = JSON.parse(process.argv[2] ?? '[]') as Spec[];
const server = new McpServer({ name: 'bench-raw-relay', version: '0.0.0' });
const clients = await Promise.all(
  specs.map(async (s) => {
    const transport = new StdioClientTransport({ ...rawCommand(s.script, s.args), stderr: 'pipe' });
    transport.stderr?.on('data', () => undefined);
    const client = new Client({ name: 'bench-raw-relay', version: '0.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    for (const t of tools)
      server.registerTool(
        `${s.name}__${t.name}`,
        {
          ...(t.description ? { description: t.description } : {}),
          inputSchema: passThrough(t.inputSchema as Record<string, unknown>),
          ...(t.annotations ? { annotations: t.annotations } : {}),
        },
        async (args: Args) => client.callTool({ name: t.name, arguments: args }) as never,
      );
    return client;
  }),
);
const transport = new StdioServerTransport();
transport.onclose = () => void Promise.all(clients.map((c) => c.close())).then(() => process.exit(0));
await server.connect(transport);
process.stderr.write(`bench raw relay: ${specs.length} servers on stdio\n`);
