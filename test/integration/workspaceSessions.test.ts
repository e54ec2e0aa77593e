// Workspaces in the app: a workspace server overrides the global one of the same name for conversations in
// that workspace only. server-everything's get-env tells which process answered.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { EVERYTHING, tempDir } from '../helpers/servers';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

const server = (who: string) => ({
  name: 'shared',
  command: 'node',
  args: [EVERYTHING, 'stdio'],
  env: { WHO_ANSWERS: who },
});

describe('workspace sessions in the core', () => {
  it('overrides a global server for calls in the workspace only, once approved', async () => {
    const home = tempDir('mooring-wss-home-');
    const ws = tempDir('mooring-wss-dir-');
    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [server('global')] }));
    mkdirSync(join(ws, '.mooring'));
    writeFileSync(
      join(ws, '.mooring', 'mcp_servers.json'),
      JSON.stringify({ servers: [server('workspace')] }),
    );
    core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    const env = async (workspace?: string) =>
      resultText(
        (
          await core!.tools.call(
            'mcp__shared__get-env',
            {},
            { preApproved: true, ...(workspace ? { workspace } : {}) },
          )
        ).result,
      );

    // Not approved yet: the workspace's file does not run; its conversations use the global server.
    const folder = await core.workspaces.ensure(ws);
    expect(await env(folder)).toContain('"WHO_ANSWERS": "global"');

    await core.workspaces.approve(ws, 'shared');
    await core.workspaces.ensure(ws);
    expect(await env(folder)).toContain('"WHO_ANSWERS": "workspace"');
    expect(await env()).toContain('"WHO_ANSWERS": "global"');
    // The global pool still has exactly one session named shared: the global one.
    expect(core.servers.statuses().filter((s) => s.name === 'shared')).toHaveLength(1);
  });
});
