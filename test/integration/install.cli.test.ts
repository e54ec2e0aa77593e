// `mooring mcp search` and `mooring mcp install` end to end: the built CLI as a child process on a temp home,
// the fixture registry and an OSV stand-in on 127.0.0.1, the real keychain (scripts/with-keyring.sh; the
// cases that store a secret check the clear refusal instead where there is none). The npm entry runs
// server-everything through `npx -y @modelcontextprotocol/server-everything@<the devDependency's version>`:
// npm exec takes an exact version the project already has from its node_modules (the CLI runs in the
// repository), and the entry sets npm_config_offline=true, so a download attempt would fail the test.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapingBundle, HELLO_KEY, packHelloBundle } from '../fixtures/bundles';
import { startOsvServer, type OsvStub } from '../fixtures/osvServer';
import { REMOTE_TOKEN, startFixtureRegistry, type FixtureRegistry } from '../fixtures/registryServer';
import { runMooring } from '../helpers/cli';
import { tempDir } from '../helpers/servers';

const KEYCHAIN = Boolean(process.env.WITH_KEYRING_INNER);
let registry: FixtureRegistry;
let osv: OsvStub;
let home: string;
let bundleDir: string;

const mooring = (args: string[], input?: string) =>
  runMooring(home, args, {
    env: { MOORING_REGISTRY_URL: registry.url },
    ...(input !== undefined ? { input } : {}),
  });
const configured = () =>
  existsSync(join(home, 'mcp_servers.json'))
    ? (
        JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')) as { servers: { name: string }[] }
      ).servers.map((s) => s.name)
    : [];

beforeAll(async () => {
  registry = await startFixtureRegistry();
  osv = await startOsvServer({
    packages: [{ ecosystem: 'npm', name: 'escape-codes', vulns: [{ id: 'MAL-2025-0002', summary: 'bad' }] }],
  });
  home = tempDir('mooring-install-cli-');
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ osvEndpoint: osv.url }));
  bundleDir = tempDir('mooring-install-cli-bundles-');
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await osv?.close();
});

describe('mooring mcp search', () => {
  it('lists name, version, title, description and how each runs; JSON with --json', async () => {
    const text = await mooring(['mcp', 'search', 'everything']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('io.github.mooring-test/everything  2026.8.31  Everything');
    expect(text.stdout).toContain('runs: npm @modelcontextprotocol/server-everything 2026.8.31');
    const json = await mooring(['mcp', 'search', 'time', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      servers: [{ name: 'io.github.mooring-test/time', version: '1.0.0' }],
    });
  });

  it('escapes what a registry says: no escape code, carriage return or bidi override reaches the terminal', async () => {
    const r = await mooring(['mcp', 'search', 'screen']);
    expect(r.code, r.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- asserting the absence of raw control characters
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(r.stdout).toContain('Nice\\x1b[2J\\x1b]0;pwned\\x07 server\\u202egnp.exe');
    const json = await mooring(['mcp', 'search', 'screen', '--json']);
    expect(json.stdout).not.toContain('\u202e');
    expect(JSON.parse(json.stdout).servers[0].title).toContain('\u202e');
  });

  it('an unreachable registry: a clear error, exit 1', async () => {
    const r = await runMooring(home, ['mcp', 'search', 'x'], {
      env: { MOORING_REGISTRY_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot reach the MCP registry at http:\/\/127\.0\.0\.1:9/);
  });
});

describe('mooring mcp install from the registry', () => {
  it('without --yes and without a terminal: refused (exit 3) after showing what would run; nothing saved', async () => {
    const r = await mooring(['mcp', 'install', 'io.github.mooring-test/everything']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      'runs: npm_config_offline=true npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio',
    );
    expect(r.stderr).toContain('repository: https://github.com/mooring-test/everything');
    expect(r.stderr).toMatch(/OSV: no known vulnerabilities/);
    expect(configured()).not.toContain('everything');
  });

  it('an npm entry installed with --yes passes mcp test (offline, from node_modules)', async () => {
    const r = await mooring(['mcp', 'install', 'io.github.mooring-test/everything', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'installed everything: npm_config_offline=true npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio',
    );
    // As every add: the default safe set, applied when it first connects (nothing was started here).
    expect(r.stderr).toContain(
      'its destructive tools start off when it first connects (the default safe set); list them with: mooring mcp tools everything',
    );
    const test = await mooring(['mcp', 'test', 'everything', '--json']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ ok: true, tools: expect.arrayContaining(['echo']) });
  });

  it('a remote entry with a secret header: piped in (never on the command line), kept in the keychain, sent to the server', async () => {
    const r = await mooring(
      ['mcp', 'install', 'io.github.mooring-test/remote-weather', '--yes', '--input', 'header.Authorization'],
      `${REMOTE_TOKEN}\n`,
    );
    if (!KEYCHAIN) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/keychain/i);
      return;
    }
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('kept in the keychain: Authorization');
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain(REMOTE_TOKEN);
    const test = await mooring(['mcp', 'test', 'remote-weather', '--json']);
    expect(JSON.parse(test.stdout)).toMatchObject({ ok: true, tools: ['forecast'] });
    expect(registry.remoteAuth).toContain(REMOTE_TOKEN);
  });

  it('a required value that is not given refuses the install (exit 2), naming it', async () => {
    const r = await mooring(['mcp', 'install', 'io.github.mooring-test/needs-key', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'asks for environment variable NEEDS_KEY_API_KEY [env.NEEDS_KEY_API_KEY] (required; secret, kept in the keychain)',
    );
    expect(r.stderr).toMatch(/Required value missing: environment variable NEEDS_KEY_API_KEY/);
    expect(configured()).not.toContain('needs-key');
  });

  it('hostile entries are refused (exit 3) and shown escaped', async () => {
    for (const name of ['shell-identifier', 'cargo-only', 'env-thief', 'newline-arg']) {
      const r = await mooring(['mcp', 'install', `io.github.mooring-test/${name}`, '--yes']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(3);
    }
    const evil = await mooring(['mcp', 'install', 'io.github.mooring-test/escape-codes', '--yes']);
    expect(evil.code).toBe(3);
    expect(evil.stderr).toMatch(/flagged as malicious \(MAL-2025-0002\)/);
    // eslint-disable-next-line no-control-regex -- asserting the absence of raw control characters
    expect(evil.stderr).not.toMatch(/[\u001b\u0007\r\u202e]/);
    expect(configured()).toEqual(
      expect.not.arrayContaining(['escape-codes', 'shell-identifier', 'cargo-only']),
    );
  });
});

describe('mooring mcp install of bundles and links', () => {
  it('a .mcpb packed with the mcpb package: installed, tested, uninstalled; a path-escaping one refused', async () => {
    const file = await packHelloBundle(bundleDir);
    // On the command line it works, with a warning that other users can read it there.
    const r = await mooring(['mcp', 'install', file, '--yes', '--input', `user_config.api_key=${HELLO_KEY}`]);
    expect(r.stderr).toMatch(/warning: the value of user_config\.api_key was on the command line/);
    if (!KEYCHAIN) {
      expect(r.code).not.toBe(0);
      return;
    }
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`from the bundle ${file}`);
    const test = await mooring(['mcp', 'test', 'hello-bundle', '--json']);
    expect(JSON.parse(test.stdout)).toMatchObject({ ok: true, tools: ['hello', 'key_ok'] });
    expect(existsSync(join(home, 'bundles', 'hello-bundle', 'server', 'index.js'))).toBe(true);
    expect((await mooring(['mcp', 'remove', 'hello-bundle'])).code).toBe(0);
    expect(existsSync(join(home, 'bundles', 'hello-bundle'))).toBe(false);

    const bad = await mooring(['mcp', 'install', escapingBundle(bundleDir), '--yes']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/climbs out with "\.\."/);
    expect(existsSync(join(bundleDir, 'escaped.js'))).toBe(false);
  });

  it('the three kinds of install link, each shown with where it came from', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const links: [string, string, RegExp][] = [
      [
        'link-mooring',
        `mooring://install?name=link-mooring&config=${b64({ command: 'npx', args: ['-y', 'some-server@1.0.0'] })}`,
        /from a mooring:\/\/ link/,
      ],
      [
        'link-cursor',
        `cursor://anysphere.cursor-deeplink/mcp/install?name=link-cursor&config=${b64({ url: 'https://mcp.example.com/mcp' })}`,
        /from a Cursor install link/,
      ],
      [
        'link-vscode',
        `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: 'link-vscode', command: 'uvx', args: ['tool'] }))}`,
        /from a VS Code install link/,
      ],
    ];
    for (const [name, link, from] of links) {
      const refused = await mooring(['mcp', 'install', link]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(from);
      const r = await mooring(['mcp', 'install', link, '--yes']);
      expect(r.code, r.stderr).toBe(0);
      expect(configured()).toContain(name);
    }
  });
});
