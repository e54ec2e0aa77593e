// The CLI as it ships (docs/cli.md, "How the CLI ships"): the project packed with `npm pack` (what
// package.json's `files` select: bin/ and the built out/), installed from the lockfile with dev dependencies
// omitted in a scratch folder, then `mooring --help` and `mooring mcp list` run there. No tsx, no
// TypeScript, no bundler: the compiled build must start on production dependencies alone. Install scripts
// are skipped (keytar's native build): the keychain is optional and neither command touches it.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../helpers/servers';

let scratch: string;
let pkg: string;

function run(cmd: string, args: string[], opts: SpawnSyncOptions = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 240_000, ...opts });
  if (r.error) throw r.error;
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function mooring(args: string[]) {
  const { NODE_PATH: _ignored, ...env } = process.env;
  return run(process.execPath, [join(pkg, 'bin/mooring.mjs'), ...args], {
    cwd: scratch,
    env: { ...env, MOORING_HOME: tempDir('mooring-installed-home-'), MOORING_NO_SHELL_PATH: '1' },
  });
}

describe('the packed CLI, installed without dev dependencies', () => {
  beforeAll(() => {
    scratch = tempDir('mooring-installed-');
    const pack = run('npm', ['pack', '--pack-destination', scratch, '--ignore-scripts', '--json'], {
      cwd: ROOT,
    });
    expect(pack.code, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    expect(run('tar', ['xzf', join(scratch, filename), '-C', scratch]).code).toBe(0);
    pkg = join(scratch, 'package');
    copyFileSync(join(ROOT, 'package-lock.json'), join(pkg, 'package-lock.json'));
    const install = run(
      'npm',
      ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: pkg },
    );
    expect(install.code, install.stderr).toBe(0);
  }, 300_000);
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('has the launcher and the build, and none of the dev tooling', () => {
    expect(existsSync(join(pkg, 'bin/mooring.mjs'))).toBe(true);
    expect(existsSync(join(pkg, 'out/main/cli.js'))).toBe(true);
    expect(existsSync(join(pkg, 'src-main'))).toBe(false);
    const installed = readdirSync(join(pkg, 'node_modules'));
    // (typescript itself is there: @trpc/server names it as a peer dependency.)
    for (const dev of ['tsx', 'esbuild', 'vite', 'electron-vite', 'electron', 'vitest'])
      expect(installed).not.toContain(dev);
  });

  it('`mooring --help` prints the commands', () => {
    const help = mooring(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: mooring/);
    for (const command of ['mcp', 'chat', 'serve', 'web']) expect(help.stdout).toContain(command);
  });

  it('`mooring mcp list` opens the core on an empty home', () => {
    const list = mooring(['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('No servers yet');
    expect(list.stderr).toBe('');
  });
});
