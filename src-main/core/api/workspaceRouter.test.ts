// Project folders through the router on a real core: a .vscode/mcp.json server with a password input is
// offered with its command line, approved with the input (kept in the keychain, never in a file), and an
// edit to the file asks again.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

describe('workspace router', () => {
  it('offers, approves with inputs, and asks again after an edit', async () => {
    const home = tempDir('mooring-ws-ui-');
    const ws = tempDir('mooring-ws-dir-');
    mkdirSync(join(ws, '.vscode'));
    const file = (arg: string) =>
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'api-key', description: 'API key', password: true }],
        servers: {
          proj: {
            type: 'stdio',
            command: 'node',
            args: [EVERYTHING, arg],
            env: { API_KEY: '${input:api-key}' },
          },
        },
      });
    writeFileSync(join(ws, '.vscode', 'mcp.json'), file('stdio'));
    const secrets = new MemorySecretStore();
    core = await MooringCore.open({ home, secretStore: secrets });
    const caller = createCallerFactory(appRouter)(createApiContext(core));

    const first = await caller.workspace.scan({ dir: ws });
    expect(first.servers).toHaveLength(1);
    expect(first.servers[0]).toMatchObject({
      name: 'proj',
      status: 'pending',
      inputs: [{ id: 'api-key', password: true }],
    });
    expect(first.servers[0]!.commandLine).toContain(`node ${EVERYTHING} stdio`);

    await expect(caller.workspace.approve({ dir: ws, name: 'proj' })).rejects.toThrow(
      /needs a value for API key/,
    );
    await caller.workspace.approve({
      dir: ws,
      name: 'proj',
      inputs: { 'api-key': 'mooring-test-secret-ws-input' },
    });
    expect((await caller.workspace.scan({ dir: ws })).servers[0]!.status).toBe('approved');
    for (const f of readdirSync(home))
      expect(readFileSync(join(home, f), 'utf8')).not.toContain('mooring-test-secret-ws-input');
    expect([...secrets.entries.values()]).toContain('mooring-test-secret-ws-input');

    writeFileSync(join(ws, '.vscode', 'mcp.json'), file('sse'));
    const edited = await caller.workspace.scan({ dir: ws });
    expect(edited.servers[0]).toMatchObject({ status: 'changed' });
    expect(edited.servers[0]!.approvedCommandLine).toContain('stdio');
  });
});
