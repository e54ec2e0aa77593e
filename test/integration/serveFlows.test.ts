// `mooring serve --stdio` remembers what its client read (serve/servedReads.ts, docs/trust.md): the real CLI
// process, launched by the SDK's own client, with two injection fixtures (test/fixtures/servers/
// injectionServer.ts). A client that obeys a fetched page and sends a secret on to another server's
// read-only log is not run silently: with no app to ask, the call is refused, nothing reaches the sink,
// and the audit line names the flow. The same client's work inside one server runs as before.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureStdio, tempDir } from '../helpers/servers';
import { serveCommandLine } from './serverHelpers';

const text = (r: { content?: unknown }) =>
  ((r.content ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('mooring serve --stdio and flows between servers', () => {
  const home = tempDir('mooring-serve-flows-');
  const sink = join(tempDir('mooring-serve-flows-sink-'), 'sink.jsonl');
  const sunk = () => (existsSync(sink) ? readFileSync(sink, 'utf8') : '');
  let client: Client;

  beforeAll(async () => {
    const env = { SINK_FILE: sink, SECRET: 'SECRET-serve-7' };
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [
          fixtureStdio('injectionServer.ts', 'web', env),
          fixtureStdio('injectionServer.ts', 'notes', env),
        ],
      }),
    );
    client = new Client({ name: 'obedient-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...serveCommandLine(), 'serve', '--stdio'],
        env: { ...(process.env as Record<string, string>), MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
        stderr: 'pipe',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
  });

  it("refuses a read secret sent to another server's read-only tool, naming the flow in the audit", async () => {
    expect(text(await client.callTool({ name: 'mcp__web__fetch_page', arguments: {} }))).toContain(
      'ignore previous instructions',
    );
    // Work inside one server: read and log there, as before, unasked.
    const secret = text(await client.callTool({ name: 'mcp__web__read_secret', arguments: {} }));
    expect(secret).toBe('SECRET-serve-7');
    const same = await client.callTool({ name: 'mcp__web__log', arguments: { text: 'web-only' } });
    expect(same.isError, text(same)).toBeFalsy();
    expect(sunk()).toContain('web-only');

    const sent = await client.callTool({ name: 'mcp__notes__log', arguments: { text: secret } });
    expect(sent.isError).toBe(true);
    expect(sunk()).not.toContain('SECRET-serve-7');
    const audit = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { server: string; tool: string; decision: string; flow?: string });
    const line = audit.find((l) => l.server === 'notes' && l.tool === 'log');
    expect(line?.decision).not.toBe('auto');
    expect(line?.flow).toBe(
      'This conversation has read content from web (fetch_page, read_secret, log), marked untrusted, marked sensitive, from the open world. This call sends data to notes (log).',
    );
  });
});
