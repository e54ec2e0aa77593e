// What a server is confined to when it arrives (docs/confinement.md, "Profiles"): a registry install starts
// confined with its runtime's profile and remembers its registry entry; a registry bundle starts confined to
// its own folder, for real, with its keychain secret in its environment; a VS Code mcp.json imports with its
// sandboxEnabled and sandbox; an install link's own sandbox block is kept and the server is confined
// whatever the link says. Real core, fixture registry on 127.0.0.1, real bundle.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { HELLO_KEY, packHelloBundle } from '../fixtures/bundles';
import { startOsvServer, type OsvStub } from '../fixtures/osvServer';
import { startFixtureRegistry, type FixtureRegistry } from '../fixtures/registryServer';
import { tempDir } from '../helpers/servers';

let registry: FixtureRegistry;
let osv: OsvStub;
let home: string;
let core: MooringCore;

beforeAll(async () => {
  registry = await startFixtureRegistry();
  osv = await startOsvServer({ packages: [] });
  home = tempDir('mooring-confined-installs-');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ osvEndpoint: osv.url }));
  core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_REGISTRY_URL: registry.url, MOORING_NO_SHELL_PATH: '1' },
  });
  registry.serveFile('hello.mcpb', readFileSync(await packHelloBundle(tempDir('mooring-bundle-src-'))));
}, 60_000);

afterAll(async () => {
  await core?.close();
  await registry?.close();
  await osv?.close();
});

describe('confined from the start', () => {
  it('an npm server from the registry: confined to its npm cache and the npm registry, its entry remembered', async () => {
    const plan = await core.install.plan('io.github.mooring-test/everything');
    expect(plan.confinement).toBe('Runs confined: writes only to ~/.npm; reaches only registry.npmjs.org.');
    await core.install.install(plan.id, { start: false });
    expect(await core.servers.get('everything')).toMatchObject({
      sandboxEnabled: true,
      sandbox: {
        filesystem: { allowWrite: ['~/.npm'] },
        network: { allowedDomains: ['registry.npmjs.org'] },
      },
      origin: {
        kind: 'registry',
        name: 'io.github.mooring-test/everything',
        registry: registry.url,
        version: '2026.8.31',
      },
    });
    await core.servers.remove('everything');
  });

  it.runIf(process.platform === 'linux')(
    'a bundle from the registry starts confined to its own folder, with its keychain secret',
    async () => {
      const plan = await core.install.plan('io.github.mooring-test/bundle', { name: 'hello' });
      const dir = join(home, 'bundles', 'hello');
      expect(plan.confinement).toBe(`Runs confined: writes only to ${dir}; reaches no network.`);
      await core.install.install(plan.id, { inputs: { 'user_config.api_key': HELLO_KEY } });
      const status = core.servers.statuses().find((s) => s.name === 'hello')!;
      expect(status).toMatchObject({ state: 'ready', toolCount: 2 });
      expect(readFileSync(`/proc/${status.pid}/cmdline`, 'utf8')).toMatch(/bwrap/);
      const row = (await core.servers.rows()).find((r) => r.config.name === 'hello')!;
      expect(row.confinement).toMatchObject({ state: 'confined', violations: 0 });
      expect(row.config).toMatchObject({
        sandboxEnabled: true,
        sandbox: { filesystem: { allowWrite: [dir] } },
      });
      await core.servers.remove('hello');
    },
    60_000,
  );

  it('a VS Code mcp.json imports with its confinement; a remote entry’s is left out', async () => {
    const text = JSON.stringify({
      servers: {
        boxed: {
          type: 'stdio',
          command: 'node',
          args: ['server.js'],
          sandboxEnabled: true,
          sandbox: {
            filesystem: { allowWrite: ['~/notes'], denyRead: ['~/private'] },
            network: { allowedDomains: ['api.example.com'] },
          },
        },
        far: { type: 'http', url: 'https://mcp.example.com/mcp', sandboxEnabled: true },
      },
    });
    // A core that runs nothing (as `mooring mcp import`): the import is about what is saved.
    const files = await MooringCore.open({
      home: tempDir('mooring-confined-import-'),
      secretStore: new MemorySecretStore(),
    });
    try {
      const preview = await files.servers.previewImport(text, 'mcp.json');
      expect(preview.format).toBe('vscode');
      expect(preview.servers.map((s) => [s.config.name, s.confinement])).toEqual([
        ['boxed', 'Runs confined: writes only to ~/notes; reaches only api.example.com.'],
        ['far', 'Remote server: it runs elsewhere; Mooring reaches it over the network only.'],
      ]);
      await files.servers.import({ text, fileName: 'mcp.json', safeDefaults: false });
      expect(await files.servers.get('boxed')).toMatchObject({
        sandboxEnabled: true,
        sandbox: {
          filesystem: { allowWrite: ['~/notes'], denyRead: ['~/private'] },
          network: { allowedDomains: ['api.example.com'] },
        },
      });
      expect((await files.servers.get('far')).sandboxEnabled).toBeUndefined();
    } finally {
      await files.close();
    }
  });

  it('an install link keeps its own sandbox block and is confined whatever it says', async () => {
    const entry = {
      name: 'linked',
      command: 'uvx',
      args: ['mcp-linked'],
      sandboxEnabled: false,
      sandbox: { network: { allowedDomains: ['api.linked.example'] } },
    };
    const link = `vscode:mcp/install?${encodeURIComponent(JSON.stringify(entry))}`;
    const plan = await core.install.plan(link);
    expect(plan.confinement).toMatch(
      /^Runs confined: writes only to ~\/.cache\/uv, ~\/.local\/share\/uv; reaches only pypi.org, files.pythonhosted.org, api.linked.example\.$/,
    );
    expect(plan.warnings.join('\n')).toMatch(/asked to run unconfined/);
    await core.install.install(plan.id, { start: false });
    expect(await core.servers.get('linked')).toMatchObject({
      sandboxEnabled: true,
      origin: { kind: 'link' },
    });
    await core.servers.remove('linked');
  });
});
