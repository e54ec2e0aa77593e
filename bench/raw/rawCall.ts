// The baseline of `mooring mcp call` (bench/suites/cliCall.ts): what a script on the raw MCP SDK does to
// call one tool: spawn the server, connect (initialize), call, print the text, close.
// Usage: node rawCall.mjs SERVER_SCRIPT TOOL JSON_ARGS [SERVER_ARGS…]
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { rawCommand } from '../lib/paths';

const [script, tool, json, ...serverArgs] = process.argv.slice(2);
if (!script || !tool || !json)
  throw new Error('usage: rawCall.mjs SERVER_SCRIPT TOOL JSON_ARGS [SERVER_ARGS…]');
const transport = new StdioClientTransport({ ...rawCommand(script, serverArgs), stderr: 'pipe' });
transport.stderr?.on('data', () => undefined);
const client = new Client({ name: 'bench-raw-call', version: '0.0.0' });
await client.connect(transport);
const result = await client.callTool({ name: tool, arguments: JSON.parse(json) as Record<string, unknown> });
const texts = (result.content as { type: string; text?: string }[]).filter((c) => c.type === 'text');
process.stdout.write(`${texts.map((c) => c.text).join('\n')}\n`);
await client.close();
