// Headless Linux, containers and WSL often have no Secret Service. A remote server without secrets must
// work there; one with a keychain secret fails with an error that names the alternatives. End to end
// through the CLI, against server-everything over Streamable HTTP on 127.0.0.1, with no D-Bus session.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer } from '../fixtures/authServer';
import { runMooring } from '../helpers/cli';
import { startEverythingHttp, tempDir } from '../helpers/servers';

let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
let home: string;

// No D-Bus session and no display: libsecret can reach no Secret Service (and cannot autolaunch one).
const mooring = (args: string[], env: Record<string, string> = {}) =>
  runMooring(home, args, { env, unset: ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY'] });

beforeAll(async () => {
  everything = await startEverythingHttp('streamableHttp');
  home = tempDir('mooring-nokeychain-');
}, 60_000);
afterAll(async () => {
  await everything?.stop();
});

describe.runIf(process.platform === 'linux')('no keychain (no D-Bus session)', () => {
  it('a remote server without secrets connects, lists tools and runs a call', async () => {
    expect((await mooring(['mcp', 'add', 'plain', '--url', everything.url])).code).toBe(0);
    const test = await mooring(['mcp', 'test', 'plain', '--json']);
    expect(test.code, test.stdout + test.stderr).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ ok: true });
    const call = await mooring([
      'mcp',
      'call',
      'plain',
      'echo',
      '{"message":"no keychain needed"}',
      '--json',
    ]);
    expect(call.code, call.stdout + call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).text).toContain('no keychain needed');
  });

  it('a header taken from the environment (${env:NAME}) needs no keychain either', async () => {
    const add = await mooring([
      'mcp',
      'add',
      'from-env',
      '--url',
      everything.url,
      '--header',
      'X-Api-Key=${env:API_KEY}',
    ]);
    expect(add.code, add.stderr).toBe(0);
    const test = await mooring(['mcp', 'test', 'from-env', '--json'], { API_KEY: 'k-123456' });
    expect(test.code, test.stdout + test.stderr).toBe(0);
  });

  it('a server whose secret is in the keychain fails with the alternatives that work', async () => {
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [
          {
            name: 'keyed',
            transport: 'http',
            url: everything.url,
            headers: { Authorization: '<keychain>' },
            secretHeaders: ['Authorization'],
          },
        ],
      }),
    );
    const test = await mooring(['mcp', 'test', 'keyed', '--json']);
    expect(test.code).toBe(1);
    const r = JSON.parse(test.stdout) as { ok: boolean; code: string; error: string; hint: string };
    expect(r).toMatchObject({ ok: false, code: 'secret_unavailable' });
    expect(r.error).toMatch(/Server "keyed": cannot read the secret header Authorization/);
    expect(r.error.split('\n')[0]).toMatch(/No keychain is reachable on this machine/);
    expect(r.error.split('\n')[1]).toMatch(/^The keychain said: /);
    expect(r.hint).toContain('${env:NAME}');
    expect(r.hint).toMatch(/Secret Service/);
  });

  it('a server that needs a sign-in says the tokens need a keychain, and what works instead', async () => {
    const auth = await startAuthServer();
    try {
      expect((await mooring(['mcp', 'add', 'signin', '--url', auth.mcpUrl])).code).toBe(0);
      const test = await mooring(['mcp', 'test', 'signin', '--json']);
      const r = JSON.parse(test.stdout) as { ok: boolean; code: string; error: string; hint: string };
      expect(r).toMatchObject({ ok: false, code: 'secret_unavailable' });
      expect(r.error).toMatch(/Signing in to "signin" needs a keychain to keep its tokens/);
      expect(r.hint).toContain('Authorization: Bearer ${env:NAME}');
    } finally {
      await auth.close();
    }
  });

  it('an import leaves out the servers whose secrets need the keychain, names them, and keeps the rest', async () => {
    const file = join(tempDir('mooring-nokeychain-import-'), 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          github: { command: 'node', args: ['x.js'], env: { GITHUB_TOKEN: 'ghp_secret123456' } },
          plain: { command: 'node', args: ['y.js'] },
        },
      }),
    );
    const r = await mooring(['mcp', 'import', file, '--yes']);
    // Something usable was imported: exit 0 (exit 1 is for an import that saved nothing usable, below).
    expect(r.code).toBe(0);
    // The consent says it before anything is tried.
    expect(r.stderr).toContain('No keychain is reachable here, and these servers have secrets to keep in it');
    expect(r.stderr).toContain('  github: env GITHUB_TOKEN\n');
    expect(r.stderr).toContain('${env:NAME}');
    expect(r.stderr).toContain('not imported (their secrets cannot be kept without a keychain): github');
    expect(r.stdout + r.stderr).not.toContain('ghp_secret123456');
    const listed = (await mooring(['mcp', 'list', '--json'])).stdout;
    expect(listed).toContain('plain');
    expect(listed).not.toContain('github');
  });

  it('an import whose every server needs the keychain saves nothing and exits 1', async () => {
    const file = join(tempDir('mooring-nokeychain-import-'), 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          gitlab: { command: 'node', args: ['x.js'], env: { GITLAB_TOKEN: 'glpat_secret1234' } },
        },
      }),
    );
    const r = await mooring(['mcp', 'import', file, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gitlab');
    expect(r.stdout + r.stderr).not.toContain('glpat_secret1234');
    expect((await mooring(['mcp', 'list', '--json'])).stdout).not.toContain('gitlab');
  });

  it('an add whose secret cannot be stored names the value and the reference that works; nothing is saved', async () => {
    const r = await mooring([
      'mcp',
      'add',
      'gh',
      '--env',
      'GITHUB_TOKEN=ghp_secret654321',
      '--',
      'node',
      'x.js',
    ]);
    expect(r.code).toBe(1);
    const error = r.stderr.slice(r.stderr.indexOf('error: '));
    const [title, secrets, said] = error.split('\n');
    expect(title).toBe(
      'error: "gh" has secrets to keep in the keychain, and no keychain is reachable here, so nothing was saved.',
    );
    expect(secrets).toBe('Secrets: gh: env GITHUB_TOKEN.');
    expect(said).toMatch(/^The keychain said: .+/);
    expect(error).toContain('For example: --env "GITHUB_TOKEN=${env:GITHUB_TOKEN}".');
    expect(r.stdout + r.stderr).not.toContain('ghp_secret654321');
    expect((await mooring(['mcp', 'list', '--json'])).stdout).not.toContain('"gh"');
    // What the hint says works.
    const ref = await mooring([
      'mcp',
      'add',
      'gh',
      '--env',
      'GITHUB_TOKEN=${env:GITHUB_TOKEN}',
      '--',
      'node',
      'x.js',
    ]);
    expect(ref.code, ref.stderr).toBe(0);
  });
});
