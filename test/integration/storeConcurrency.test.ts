// The home is shared by the app, the CLI and `mooring serve` (docs/data-on-disk.md, "Data on disk"): real
// processes change the same files at once and nothing is lost. Thirty `mooring mcp add` started together
// used to all exit 0 with about nine servers saved; twenty `mooring toolset add` lost about half. A writer
// killed while holding a lock does not block the next one for long; a live holder gives a clear error.
// Slow on two cores (every process compiles the CLI through tsx): generous timeouts, no timing assertions.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileStore } from '../../src-main/core/config/jsonFileStore';
import { lockPathOf } from '../../src-main/core/config/fileLock';
import { settingsFormat, SettingsStore } from '../../src-main/core/config/settings';
import { ROOT, RUN_TS, tempDir } from '../helpers/servers';

const BIN = join(ROOT, 'bin/mooring.mjs');

function mooring(home: string, args: string[]) {
  return new Promise<{ code: number; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Starts a process that holds the settings file's lock; resolves once it is inside its change. */
function holdLock(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // One process (not tsx's CLI, which runs the script in a child): SIGKILL must reach the holder itself.
    const child = spawn(process.execPath, [RUN_TS, join(ROOT, 'test/fixtures/lockHolder.ts'), file], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('HOLDING')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`the lock holder exited (${code}): ${stderr}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.on('exit', () => resolve());
  });

describe('one home, many processes', () => {
  it('thirty `mooring mcp add` started together keep all thirty servers', { timeout: 600_000 }, async () => {
    const home = tempDir('mooring-conc-servers-');
    const names = Array.from({ length: 30 }, (_, i) => `server-${i}`);
    const results = await Promise.all(
      names.map((name) => mooring(home, ['mcp', 'add', name, '--', 'node', 'server.js', name])),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')) as {
      servers: { name: string; args: string[] }[];
    };
    expect(saved.servers.map((s) => s.name).sort()).toEqual([...names].sort());
    for (const s of saved.servers) expect(s.args).toEqual(['server.js', s.name]);
    expect(existsSync(lockPathOf(join(home, 'mcp_servers.json')))).toBe(false);
  });

  it('twenty `mooring toolset add` started together keep all twenty sets', { timeout: 600_000 }, async () => {
    const home = tempDir('mooring-conc-toolsets-');
    const names = Array.from({ length: 20 }, (_, i) => `set-${i}`);
    const results = await Promise.all(
      names.map((name, i) => mooring(home, ['toolset', 'add', name, `mcp__s__tool_${i}`])),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const settings = await SettingsStore.forHome(home).get();
    expect(settings.toolSets.map((t) => t.name).sort()).toEqual([...names].sort());
  });

  it('a writer killed while holding the lock does not block the next one', { timeout: 180_000 }, async () => {
    const home = tempDir('mooring-conc-killed-');
    const file = join(home, 'settings.json');
    const holder = await holdLock(file);
    expect(existsSync(lockPathOf(file))).toBe(true);
    holder.kill('SIGKILL');
    await exited(holder);
    // The dead holder's lock is still on disk; the next writer takes it over once it is stale.
    expect(existsSync(lockPathOf(file))).toBe(true);
    const store = new SettingsStore({ file });
    await store.update((s) => ({ ...s, toolSets: [{ name: 'after', tools: ['mcp__s__t'] }] }));
    expect((await store.get()).toolSets.map((t) => t.name)).toEqual(['after']);
    expect(existsSync(lockPathOf(file))).toBe(false);
  });

  it(
    'a live holder makes the next writer fail with a clear error, writing nothing',
    { timeout: 180_000 },
    async () => {
      const home = tempDir('mooring-conc-held-');
      const file = join(home, 'settings.json');
      writeFileSync(file, '{ "yolo": false }\n');
      const holder = await holdLock(file);
      const store = new JsonFileStore({ file, format: settingsFormat, lock: { waitMs: 3_000 } });
      const err = await store.update((s) => ({ ...s, yolo: true })).catch((e: unknown) => e);
      expect(err).toMatchObject({
        code: 'timeout',
        message: expect.stringContaining(`${file}.lock`),
        hint: expect.stringMatching(/If no Mooring process is running .* delete the folder/),
      });
      expect(readFileSync(file, 'utf8')).toBe('{ "yolo": false }\n');
      holder.kill('SIGKILL');
    },
  );

  it(
    'a CLI change never overwrites an invalid file: it names the place and exits non-zero',
    { timeout: 180_000 },
    async () => {
      const home = tempDir('mooring-conc-invalid-');
      const home2 = tempDir('mooring-conc-invalid-');
      const broken = '{\n  "servers": [\n    { "name": "a", "command": "node", }\n  ]\n}\n';
      const brokenSettings = '{ "toolSets": [ { "name": "x" ] }\n';
      writeFileSync(join(home, 'mcp_servers.json'), broken);
      writeFileSync(join(home2, 'settings.json'), brokenSettings);
      const [add, toolset] = await Promise.all([
        mooring(home, ['mcp', 'add', 'b', '--', 'node', 'b.js']),
        mooring(home2, ['toolset', 'add', 'set', 'mcp__s__t']),
      ]);
      expect(add.code).not.toBe(0);
      expect(add.stderr).toContain(`${join(home, 'mcp_servers.json')}:3:`);
      expect(toolset.code).not.toBe(0);
      expect(toolset.stderr).toContain(`${join(home2, 'settings.json')}:1:`);
      expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).toBe(broken);
      expect(readFileSync(join(home2, 'settings.json'), 'utf8')).toBe(brokenSettings);
    },
  );
});
