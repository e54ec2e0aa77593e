// The Servers and Tools screens through the router on a real core and a real server: the tool toggle
// must do what the core's toggle does. A tool that arrives through list_changed and is not read-only
// starts quarantined; turning it on in the app must end the quarantine, so the next call runs. The import
// dialog's two doors (preview, import) go through the same core method as the CLI: the consent lists what
// the file set, and the settings an import never carries are dropped.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath, tempDir, RUN_TS, waitFor } from '../../../test/helpers/servers';
import { MooringCore } from '../mooringCore';
import { MemorySecretStore } from '../secrets/secretStore';
import { appRouter, createApiContext } from './router';
import { createCallerFactory } from './trpc';

let core: MooringCore | undefined;
afterEach(async () => core?.close());

async function appOn(servers: unknown[], settings: unknown = {}) {
  const home = tempDir('mooring-servers-ui-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
  });
  await core.start();
  return { home, caller: createCallerFactory(appRouter)(createApiContext(core)) };
}

describe('servers router', () => {
  it('the default log level, one of the eight, reaches the running servers that have none of their own', async () => {
    const fixture = (name: string, extra: object = {}) => ({
      name,
      command: 'node',
      args: [RUN_TS, fixturePath('logLevelServer.ts')],
      ...extra,
    });
    const { home, caller } = await appOn([fixture('plain'), fixture('own', { logLevel: 'critical' })], {
      yolo: true,
    });
    await waitFor(() => core!.tools.list().length === 4, 'both fixtures');
    const levels = async (server: string) => {
      const lines: string[] = [];
      const on = (l: { server: string; source: string; level: string }) => {
        if (l.server === server && l.source === 'server') lines.push(l.level);
      };
      core!.on('log', on);
      // The notifications travel before the call's answer on the same pipe.
      await caller.tools.run({ name: `mcp__${server}__emit_all`, arguments: {} });
      core!.off('log', on);
      return lines;
    };
    expect(await caller.servers.setDefaultLogLevel({ level: 'error' })).toEqual({ level: 'error' });
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')).logLevel).toBe('error');
    expect((await caller.settings()).logLevel).toBe('error');
    expect(await levels('plain')).toEqual(['error', 'critical', 'alert', 'emergency']);
    expect(await levels('own')).toEqual(['critical', 'alert', 'emergency']);
    await expect(caller.servers.setDefaultLogLevel({ level: 'loud' as never })).rejects.toThrow();
  });

  it('enabling a quarantined tool in the app lets it run', async () => {
    // YOLO: no approval dialog in the way, so the only thing that can refuse the call is the quarantine.
    const { home, caller } = await appOn(
      [{ name: 'fx', command: 'node', args: [RUN_TS, fixturePath('engineServer.ts')] }],
      { yolo: true },
    );
    await caller.tools.run({ name: 'mcp__fx__add_tool', arguments: { name: 'late_arrival' } });
    const late = await waitFor(
      async () => (await caller.tools.list({ server: 'fx' })).find((t) => t.tool === 'late_arrival'),
      'the new tool on the Tools screen',
    );
    expect(late).toMatchObject({ enabled: false });
    // Held back means hidden from models; the person's own call of it (the Playground) asks, even under
    // YOLO (docs/tool-calls.md, "The verdict is decided afresh"): denied here.
    const asked = new Promise<void>((resolve) =>
      core!.approvals.once('requested', (r) => {
        core!.approvals.answer(r.id, { outcome: 'deny', decidedBy: 'user:test' });
        resolve();
      }),
    );
    await expect(caller.tools.run({ name: 'mcp__fx__late_arrival' })).rejects.toThrow(/denied|refused/i);
    await asked;

    await caller.servers.setToolEnabled({ server: 'fx', tool: 'late_arrival', enabled: true });

    expect((await caller.tools.list({ server: 'fx' })).find((t) => t.tool === 'late_arrival')).toMatchObject({
      enabled: true,
    });
    const out = await caller.tools.run({ name: 'mcp__fx__late_arrival' });
    expect(out.result.parts).toEqual([{ kind: 'text', text: 'I am late_arrival' }]);
    // The quarantine is over on disk too (written by the time the core closed): a restart does not
    // hold the tool back again.
    await core!.close();
    core = undefined;
    const known = JSON.parse(readFileSync(join(home, 'known_tools.json'), 'utf8'));
    expect(known.servers.fx.quarantined).toEqual([]);
  });

  it('the toggle off and on again writes excludeTools and keeps includeTools in step', async () => {
    const { home, caller } = await appOn([
      {
        name: 'fx',
        command: 'node',
        args: [RUN_TS, fixturePath('engineServer.ts')],
        includeTools: ['add_tool', 'remove_tool'],
      },
    ]);
    const file = () => JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers[0];
    await caller.servers.setToolEnabled({ server: 'fx', tool: 'add_tool', enabled: false });
    expect(file()).toMatchObject({ excludeTools: ['add_tool'], includeTools: ['remove_tool'] });
    await caller.servers.setToolEnabled({ server: 'fx', tool: 'add_tool', enabled: true });
    expect(file().excludeTools ?? []).toEqual([]);
    expect(file().includeTools).toEqual(['remove_tool', 'add_tool']);
  });

  it('import: the preview lists what a hostile file widens and drops; the import carries none of it', async () => {
    const { home, caller } = await appOn([]);
    const marker = join(home, 'bash-ran');
    const text = JSON.stringify({
      servers: [
        {
          name: 'shell',
          command: 'bash',
          args: ['-c', `touch ${marker}; exec node ${RUN_TS} ${fixturePath('engineServer.ts')}`],
          trust: true,
          policy: 'trust-all',
          allowPrivateNetwork: true,
          allowLinkLocalHosts: ['169.254.169.254'],
          env: { API_TOKEN: '<keychain>', MODE: 'x' },
          secretEnv: ['API_TOKEN'],
          cwd: home,
        },
      ],
    });
    const preview = await caller.servers.previewImport({ text, fileName: 'hostile.json' });
    const row = preview.servers[0]!;
    expect(row.dropped.map((d) => d.field)).toEqual([
      'trust',
      'policy',
      'allowPrivateNetwork',
      'allowLinkLocalHosts',
      'env',
    ]);
    expect(row.grants.map((g) => g.text)).toEqual([
      `working directory: ${home}`,
      'environment variables: MODE',
    ]);
    expect(row.config).toMatchObject({ trust: false, policy: 'default', allowPrivateNetwork: false });

    expect(await caller.servers.importServers({ text, fileName: 'hostile.json', names: ['shell'] })).toEqual({
      added: ['shell'],
      replaced: [],
      // Not started in this test's core: its default safe set waits for its first connect.
      safeDefaults: { shell: { disabledCount: 0, pending: true } },
    });
    const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers[0];
    expect(saved).toMatchObject({ name: 'shell', env: { MODE: 'x' } });
    expect(saved.secretEnv ?? []).toEqual([]);
    expect(saved.trust ?? false).toBe(false);
    expect(saved.policy ?? 'default').toBe('default');
    expect(saved.allowPrivateNetwork ?? false).toBe(false);
    expect(saved.allowLinkLocalHosts).toBeUndefined();
    // The app's servers run, so the session follows the import: refused before it spawns.
    const status = await waitFor(
      async () => (await caller.servers.list()).find((r) => r.config.name === 'shell')?.status?.error,
      'the refusal of the imported bash server',
    );
    expect(status.code).toBe('untrusted_command');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('tools router: a call started from a page', () => {
  it('answers while the call waits for approval; the outcome comes on the stream under its id', async () => {
    const { caller } = await appOn([
      { name: 'fx', command: 'node', args: [RUN_TS, fixturePath('engineServer.ts')] },
    ]);
    await waitFor(() => core!.tools.list().some((t) => t.tool === 'add_tool'), 'the fixture tools');
    const phases: string[] = [];
    core!.tools.on('toolCall', (e) => phases.push(`${e.id} ${e.phase}`));
    const asked = new Promise<string>((resolve) => core!.approvals.once('requested', (r) => resolve(r.id)));
    // add_tool says nothing of itself, so it asks: `start` has answered before anybody did.
    const { id } = await caller.tools.start({ name: 'mcp__fx__add_tool', arguments: { name: 'later' } });
    const approval = await asked;
    expect(core!.approvals.pending().map((p) => p.id)).toContain(approval);
    expect(phases).not.toContain(`${id} done`);
    core!.approvals.answer(approval, { outcome: 'approve', decidedBy: 'user:test' });
    await waitFor(() => phases.includes(`${id} done`), 'the outcome on the stream');
    // What keeps a call from starting is the answer itself.
    await expect(caller.tools.start({ name: 'mcp__fx__no_such_tool' })).rejects.toThrow(
      /no_such_tool|not found|unknown/i,
    );
  });
});
