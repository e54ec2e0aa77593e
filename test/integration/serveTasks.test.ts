// `mooring serve` and a tool that requires task augmentation (docs/tasks-and-resources.md, "Tasks"): Mooring runs it as
// a task on its client's behalf (its own server declares no tasks capability, so a client calls it like
// any tool, MCP 2025-11-25 "Tool-Level Negotiation") and answers with the tool's result.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../helpers/servers';
import { serveCommandLine, watchToolList } from './serverHelpers';

let client: Client | undefined;
afterAll(async () => client?.close());

it('a client of mooring serve calls simulate-research-query and gets the report, with no task vocabulary', async () => {
  const home = tempDir('mooring-serve-tasks-');
  writeFileSync(
    join(home, 'mcp_servers.json'),
    JSON.stringify({
      servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], policy: 'trust-all' }],
    }),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...serveCommandLine(), 'serve', '--stdio'],
    env: { ...(process.env as Record<string, string>), MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'task-client', version: '1.0.0' });
  const tools = watchToolList(client);
  await client.connect(transport);
  const name = 'mcp__everything__simulate-research-query';
  // The server may still be connecting: its tools arrive with a tools/list_changed.
  await tools.until((names) => names.includes(name));
  const tool = (await client.listTools()).tools.find((t) => t.name === name);
  expect(tool).toBeDefined();
  expect(tool!.execution).toBeUndefined();
  expect(client.getServerCapabilities()?.tasks).toBeUndefined();
  const result = await client.callTool({ name, arguments: { topic: 'tides' } });
  expect(result.isError).toBeFalsy();
  const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  expect(text).toContain('# Research Report: tides');
}, 120_000);
