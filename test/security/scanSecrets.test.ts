// scripts/scanSecrets.mjs (no test secret on disk after the suite) must really find a
// planted secret, with file and line; and a real CLI run that stores secrets leaves none in its home.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, tempDir } from '../helpers/servers';
import conventions from './testSecrets.json' with { type: 'json' };
import { testSecret } from './testSecrets';

const root = resolve(import.meta.dirname, '../..');
const SCANNER = join(root, 'scripts/scanSecrets.mjs');

function scan(args: string[]) {
  const r = spawnSync(process.execPath, [SCANNER, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scripts/scanSecrets.mjs', () => {
  // A private stand-in for os.tmpdir(), so planted secrets never reach the real post-suite scan.
  let fakeTmp: string;
  const planted = testSecret('planted');
  const known = conventions.knownValues[0]!.value;

  beforeAll(() => {
    fakeTmp = mkdtempSync(join(tmpdir(), 'scan-secrets-test-'));
    const home = join(fakeTmp, 'mooring-home-leaky');
    mkdirSync(join(home, 'logs'), { recursive: true });
    writeFileSync(join(home, 'mcp_servers.json'), '{ "servers": [] }\n');
    writeFileSync(join(home, 'logs', 'every.log'), `start\nconnected\nenv TOKEN=${planted}\n`);
    const other = join(fakeTmp, 'mooring-settings-x');
    mkdirSync(other);
    writeFileSync(join(other, 'settings.json'), `{\n  "header": "Bearer ${known}"\n}\n`);
    // Not a Mooring dir, and a symlink out of a home: neither is read.
    const outside = join(fakeTmp, 'unrelated');
    mkdirSync(outside);
    writeFileSync(join(outside, 'notes.txt'), planted);
    symlinkSync(join(outside, 'notes.txt'), join(home, 'link.txt'));
    // A checkout cloned under a mooring-* dir (scripts/ciUnderLoad.sh did): its test files are not read.
    const clone = join(fakeTmp, 'mooring-ci-clone', 'checkout');
    mkdirSync(join(clone, 'test'), { recursive: true });
    writeFileSync(join(clone, 'test', 'secrets.ts'), planted);
  });
  afterAll(() => rmSync(fakeTmp, { recursive: true, force: true }));

  it('finds a planted marker secret in a log and a known value in settings, with file and line', () => {
    const r = scan(['--tmp', fakeTmp, '--checkout', join(fakeTmp, 'mooring-ci-clone', 'checkout')]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `${join(fakeTmp, 'mooring-home-leaky', 'logs', 'every.log')}:3: marker ${conventions.marker}`,
    );
    expect(r.stderr).toContain(
      `${join(fakeTmp, 'mooring-settings-x', 'settings.json')}:2: known test secret`,
    );
    expect(r.stderr).not.toContain('unrelated');
    expect(r.stderr).not.toContain('link.txt');
    expect(r.stderr).not.toContain('mooring-ci-clone');
    expect(r.stdout).toMatch(/3 dirs \(2 Mooring homes\), 3 files \(1 logs\)/);
  });

  it('passes a clean home, and refuses to pass when there is no home to check', () => {
    const clean = mkdtempSync(join(tmpdir(), 'scan-secrets-clean-'));
    try {
      mkdirSync(join(clean, 'mooring-home-ok', 'logs'), { recursive: true });
      writeFileSync(join(clean, 'mooring-home-ok', 'mcp_servers.json'), '{ "servers": [] }\n');
      writeFileSync(join(clean, 'mooring-home-ok', 'logs', 'a.log'), 'GITHUB_TOKEN=<keychain>\n');
      expect(scan(['--tmp', clean]).status).toBe(0);
      rmSync(join(clean, 'mooring-home-ok'), { recursive: true });
      const empty = scan(['--tmp', clean]);
      expect(empty.status).toBe(1);
      expect(empty.stderr).toMatch(/no Mooring home/);
      expect(scan(['--tmp', clean, '--allow-empty']).status).toBe(0);
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });
});

// Keychain-backed CLI run: only under a private Secret Service (scripts/with-keyring.sh, as CI runs).
const privateKeyring = Boolean(process.env.GNOME_KEYRING_CONTROL || process.env.WITH_KEYRING_INNER);

describe.skipIf(!privateKeyring)('a real CLI run with secrets leaves none on disk', () => {
  // Kept after the test on purpose: the post-suite scan (scripts/test.sh) checks this home again.
  const home = tempDir('mooring-secrets-home-');
  const secretEnv = testSecret('secret-env');
  const lookAlike = testSecret('api-token');
  const header = testSecret('header');

  function mooring(args: string[]) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [join(root, 'bin/mooring.mjs'), ...args], {
        env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
  }

  it('secret env, a secret-looking env and a header reach the server but no file in the home', async () => {
    const add = await mooring([
      'mcp', 'add', 'every',
      '--secret-env', `EVERY_SECRET=${secretEnv}`,
      '--env', `API_TOKEN=${lookAlike}`,
      '--env', 'PLAIN=visible',
      '--', 'node', EVERYTHING, 'stdio',
    ]); // prettier-ignore
    expect(add.code, add.stderr).toBe(0);
    const remote = await mooring([
      'mcp',
      'add',
      'remote',
      '--url',
      'https://example.com/mcp',
      '--header',
      `Authorization=Bearer ${header}`,
    ]);
    expect(remote.code, remote.stderr).toBe(0);

    const list = await mooring(['mcp', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    for (const s of [secretEnv, lookAlike, header]) expect(list.stdout + list.stderr).not.toContain(s);

    // The secrets really reach the server from the keychain (so a clean scan means something).
    const env = await mooring(['mcp', 'call', 'every', 'get-env', '{}']);
    expect(env.code, env.stderr).toBe(0);
    expect(env.stdout).toContain(secretEnv);
    expect(env.stdout).toContain(lookAlike);
    expect(env.stdout).toContain('visible');

    const r = scan(['--tmp', dirname(home), '--prefix', basename(home)]);
    expect(r.stdout).toMatch(/1 dirs \(1 Mooring homes\)/);
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});
