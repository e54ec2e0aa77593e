// The managed policy (docs/managed-policy.md) against every way a server comes in, real core and CLI: a
// policy that denies a command and a bundle's name and requires confinement refuses the form (and a pasted
// entry, the same add), an import, an install link, a registry install, a bundle, a project folder and
// `mooring mcp add`, each naming the rule; `mooring serve` starts neither a denied server nor an allowed one
// without confinement, and relays the confined one; YOLO and "always allow" stay off.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { packHelloBundle } from '../fixtures/bundles';
import { startOsvServer, type OsvStub } from '../fixtures/osvServer';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registryServer';
import { runMooring } from '../helpers/cli';
import { ROOT, RUN_TS, fixturePath, tempDir } from '../helpers/servers';

const RULE_NPX = /managed by Mooring tests IT\) refuses "[\w-]+": deniedServers\[0\] \{"command":"npx"\}/;

let policyFile: string;
let registry: FixtureRegistry;
let osv: OsvStub;
let home: string;
let core: MooringCore;
let bundleFile: string;

const probe = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  command: 'node',
  args: [RUN_TS, fixturePath('sandboxProbe.ts')],
  ...extra,
});

beforeAll(async () => {
  policyFile = join(tempDir('mooring-policy-'), 'policy.json');
  writeFileSync(
    policyFile,
    JSON.stringify({
      managedBy: 'Mooring tests IT',
      deniedServers: [{ command: 'npx' }, { serverName: 'hello-bundle' }],
      confinement: { required: true },
      yolo: false,
      alwaysAllow: false,
    }),
  );
  registry = await startFixtureRegistry();
  osv = await startOsvServer({ packages: [] });
  home = tempDir('mooring-policy-home-');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ osvEndpoint: osv.url, yolo: true }));
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: {
      ...process.env,
      MOORING_POLICY_FILE: policyFile,
      MOORING_REGISTRY_URL: registry.url,
      MOORING_NO_SHELL_PATH: '1',
    },
  });
  bundleFile = await packHelloBundle(tempDir('mooring-policy-bundle-'));
}, 60_000);

afterAll(async () => {
  await core?.close();
  await registry?.close();
  await osv?.close();
});

const refused = (p: Promise<unknown>, rule: RegExp) =>
  expect(p).rejects.toMatchObject({ code: 'refused', message: expect.stringMatching(rule) });

describe('a managed policy that denies npx and requires confinement', { timeout: 120_000 }, () => {
  it('refuses each way of adding, naming the rule', async () => {
    // The form and a pasted JSON entry are the same add.
    await refused(
      core.servers.add({ name: 'by-hand', command: 'npx', args: ['-y', 'some-mcp'], sandboxEnabled: true }),
      RULE_NPX,
    );
    await refused(
      core.servers.import({
        text: JSON.stringify({ mcpServers: { imported: { command: 'npx', args: ['-y', 'some-mcp'] } } }),
        fileName: 'claude_desktop_config.json',
      }),
      RULE_NPX,
    );
    const link = await core.install.plan(
      `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: 'linked', command: 'npx', args: ['-y', 'x'] }))}`,
    );
    await refused(core.install.install(link.id, { start: false }), RULE_NPX);
    const fromRegistry = await core.install.plan('io.github.mooring-test/everything');
    await refused(core.install.install(fromRegistry.id, { start: false }), RULE_NPX);
    const bundle = await core.install.plan(bundleFile);
    await refused(
      core.install.install(bundle.id, { start: false, inputs: { 'user_config.api_key': 'any' } }),
      /refuses "hello-bundle": deniedServers\[1\] \{"serverName":"hello-bundle"\}/,
    );
    const project = tempDir('mooring-policy-project-');
    mkdirSync(join(project, '.vscode'));
    writeFileSync(
      join(project, '.vscode', 'mcp.json'),
      JSON.stringify({ servers: { folder: { command: 'npx', args: ['-y', 'folder-mcp'] } } }),
    );
    await refused(core.workspaces.approve(project, 'folder'), RULE_NPX);
    // An allowed command without confinement: refused too, with what to do.
    await expect(core.servers.add(probe('unboxed'))).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/confinement\.required/),
      hint: expect.stringMatching(/Run confined/),
    });
    const cli = await runMooring(home, ['mcp', 'add', 'from-cli', '--confined', '--', 'npx', '-y', 'x'], {
      env: { MOORING_POLICY_FILE: policyFile },
    });
    expect(cli.code).toBe(3);
    expect(cli.stderr).toMatch(RULE_NPX);
    // Nothing of it was saved, nor unpacked.
    expect(await core.servers.listMasked()).toEqual([]);
    expect(() => readFileSync(join(home, 'bundles', 'hello-bundle', 'manifest.json'))).toThrow();
    // The app shows what is managed and by whom.
    expect(core.confinement.policyView()).toMatchObject({
      managedBy: 'Mooring tests IT',
      rules: expect.arrayContaining(['Every local server runs confined.', 'YOLO mode is off.']),
      locks: { yolo: false, alwaysAllow: false, confinementRequired: true },
    });
  });

  it.runIf(process.platform === 'linux')(
    'mooring serve starts neither a denied server nor an unconfined one, and relays the confined one',
    async () => {
      const serveHome = tempDir('mooring-policy-serve-');
      writeFileSync(
        join(serveHome, 'mcp_servers.json'),
        JSON.stringify({
          servers: [
            { name: 'denied', command: 'npx', args: ['-y', 'x'], sandboxEnabled: true },
            probe('unboxed'),
            probe('boxed', { sandboxEnabled: true }),
          ],
        }),
      );
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, 'bin/mooring.mjs'), 'serve', '--stdio'],
        env: {
          ...(process.env as Record<string, string>),
          MOORING_HOME: serveHome,
          MOORING_NO_SHELL_PATH: '1',
          MOORING_POLICY_FILE: policyFile,
        },
        stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr?.on('data', (d) => (stderr += String(d)));
      const client = new Client({ name: 'policy-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools).toContain('mcp__boxed__read_file');
        expect(tools.filter((t) => /__(denied|unboxed)__/.test(t))).toEqual([]);
        expect(stderr).toMatch(/denied is not connected: .*deniedServers\[0\] \{"command":"npx"\}/);
        expect(stderr).toMatch(/unboxed is not connected: .*confinement\.required/);
      } finally {
        await client.close();
      }
    },
  );

  it.runIf(process.platform === 'linux')('YOLO and "always allow" stay off', async () => {
    await core.servers.add(probe('asks', { sandboxEnabled: true }), { safeDefaults: false });
    const asked: string[] = [];
    core.approvals.on('requested', (r) => {
      asked.push(r.id);
      core.approvals.answer(r.id, { outcome: 'always', decidedBy: 'user:test' });
    });
    const target = join(tempDir('mooring-policy-w-'), 'x.txt');
    for (let i = 0; i < 2; i++)
      await core.tools.call('mcp__asks__write_file', { path: target, content: 'x' }, { client: 'test' });
    // settings.json says YOLO, and the first answer was "always": the policy asks each time all the same.
    expect(asked).toHaveLength(2);
  });
});
