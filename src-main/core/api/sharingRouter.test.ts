// Mooring's MCP server started from the UI: the SDK's own client connects with the token it showed once,
// sees a configured server's tools under mcp__ names, and is refused without the token; stop closes it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
// Closing the core also stops the server the UI started.
afterEach(async () => core?.close());

describe('sharing router', () => {
  it('starts on 127.0.0.1 with a one-time token, serves the tools, and stops', async () => {
    const home = tempDir('mooring-mcpserver-ui-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
    core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    const caller = createCallerFactory(appRouter)(createApiContext(core));
    expect(await caller.sharing.status()).toEqual({ running: false });
    const { url, token } = await caller.sharing.start({ label: 'test-client', readOnly: true });
    expect(new URL(url).hostname).toBe('127.0.0.1');

    const noToken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);

    const client = new Client({ name: 'sdk-test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__every__echo');
    const echo = await client.callTool({
      name: 'mcp__every__echo',
      arguments: { message: 'via the UI server' },
    });
    expect(JSON.stringify(echo.content)).toContain('via the UI server');
    expect((await caller.sharing.status()).running).toBe(true);
    await client.close();

    await caller.sharing.stop();
    expect(await caller.sharing.status()).toEqual({ running: false });
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
