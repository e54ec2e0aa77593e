// The `mooring` CLI end to end: real processes, a temp MOORING_HOME, real servers from node_modules.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, FILESYSTEM, ROOT, tempDir } from '../helpers/servers';

const BIN = join(ROOT, 'bin/mooring.mjs');
let home: string;

function mooring(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(opts.input ?? '');
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('mooring mcp (CLI)', () => {
  let fsRoot: string;
  beforeAll(async () => {
    home = tempDir('mooring-cli-home-');
    fsRoot = tempDir('mooring-cli-fs-');
    writeFileSync(join(fsRoot, 'a.txt'), 'alpha');
    expect((await mooring(['mcp', 'add', 'every', '--', 'node', EVERYTHING, 'stdio'])).code).toBe(0);
    // --all-tools: this suite calls write_file, which the default safe set would turn off.
    expect(
      (await mooring(['mcp', 'add', 'files', '--all-tools', '--', 'node', FILESYSTEM, fsRoot])).code,
    ).toBe(0);
  }, 60_000);

  it('a server added with mcp add gets the default safe set on its first connect, and says so', async () => {
    const added = await mooring(['mcp', 'add', 'safe', '--', 'node', FILESYSTEM, fsRoot]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toMatch(/destructive tools start off/);
    const target = join(fsRoot, 'never.txt');
    const refused = await mooring([
      'mcp',
      'call',
      'safe',
      'write_file',
      JSON.stringify({ path: target, content: 'x' }),
    ]);
    // Off means hidden from models; a person's own call of it asks, and with nobody to ask (no terminal,
    // no --yes) it is refused, naming both ways on.
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/--yes/);
    expect(refused.stderr).toMatch(/mooring mcp tools safe --enable write_file/);
    expect(existsSync(target)).toBe(false);
    const saved = JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers.find(
      (x: { name: string }) => x.name === 'safe',
    );
    expect(saved.excludeTools).toEqual(expect.arrayContaining(['write_file', 'edit_file', 'move_file']));
    // Applied once: a tool the user turns back on stays on at the next connect.
    const known = JSON.parse(readFileSync(join(home, 'known_tools.json'), 'utf8'));
    expect(known.servers.safe.safeSetPending).toBeUndefined();
    await mooring(['mcp', 'remove', 'safe']);
  }, 120_000);

  it('lists servers as JSON with secrets masked, and keeps them out of the file', async () => {
    const add = await mooring([
      'mcp',
      'add',
      'remote',
      '--url',
      'https://example.com/mcp',
      '--header',
      'Authorization=Bearer s3cr3t-value',
    ]);
    if (process.env.WITH_KEYRING_INNER) {
      expect(add.code, add.stderr).toBe(0);
      expect(add.stderr).toContain('kept Authorization in the keychain');
    } else {
      // Without a keychain the secret cannot be stored: a clear refusal, nothing written in plaintext.
      expect(add.code).not.toBe(0);
      expect(add.stderr).toMatch(/keychain|environment-variable reference/i);
    }
    const list = await mooring(['mcp', 'list', '--json']);
    expect(list.code).toBe(0);
    const servers = JSON.parse(list.stdout) as Array<{ name: string; headers?: Record<string, string> }>;
    expect(servers.map((s) => s.name)).toEqual(expect.arrayContaining(['every', 'files']));
    expect(list.stdout).not.toContain('s3cr3t-value');
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain('s3cr3t-value');
    await mooring(['mcp', 'remove', 'remote']);
  });

  it('tests a server: ok with tools and latency; a wrong command fails with a hint', async () => {
    const ok = await mooring(['mcp', 'test', 'every', '--json']);
    expect(ok.code).toBe(0);
    const r = JSON.parse(ok.stdout);
    expect(r).toMatchObject({ ok: true });
    expect(r.tool_count).toBeGreaterThan(5);
    expect(typeof r.latency_ms).toBe('number');

    expect((await mooring(['mcp', 'add', 'broken', '--', 'node', join(fsRoot, 'missing.js')])).code).toBe(0);
    const bad = await mooring(['mcp', 'test', 'broken', '--json']);
    expect(bad.code).toBe(1);
    const b = JSON.parse(bad.stdout);
    expect(b.ok).toBe(false);
    expect(b.error).toMatch(/exited|Cannot find module/);
    expect(b.hint).toBeTruthy();
    await mooring(['mcp', 'remove', 'broken']);
  });

  it('lists tools through the catalog with mcp__server__tool names', async () => {
    const res = await mooring(['mcp', 'tools', 'files', '--json']);
    expect(res.code).toBe(0);
    const tools = JSON.parse(res.stdout) as Array<Record<string, unknown>>;
    const read = tools.find((t) => t.tool === 'read_text_file');
    expect(read).toMatchObject({
      name: 'mcp__files__read_text_file',
      server: 'files',
      readOnly: true,
      destructive: false,
    });
    expect(tools.find((t) => t.tool === 'write_file')).toMatchObject({ readOnly: false });
  });

  it('calls a read-only tool; returns images as mime type and byte count', async () => {
    const echo = await mooring(['mcp', 'call', 'every', 'echo', '{"message":"hello"}', '--json']);
    expect(echo.code).toBe(0);
    expect(JSON.parse(echo.stdout)).toMatchObject({ isError: false, text: expect.stringContaining('hello') });
    const img = await mooring(['mcp', 'call', 'every', 'get-tiny-image', '--json']);
    expect(img.code).toBe(0);
    const j = JSON.parse(img.stdout);
    expect(j.images[0]).toMatchObject({ mimeType: 'image/png' });
    expect(j.images[0].bytes).toBeGreaterThan(50);
    expect(img.stdout).not.toMatch(/iVBORw0KGgo/); // no base64 in the output
  });

  it('refuses a destructive tool without --yes (exit 3) and runs it with --yes', async () => {
    const target = join(fsRoot, 'written.txt');
    const args = JSON.stringify({ path: target, content: 'from the cli' });
    const refused = await mooring(['mcp', 'call', 'files', 'write_file', args]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/--yes/);
    expect(existsSync(target)).toBe(false);
    const done = await mooring(['mcp', 'call', 'files', 'write_file', args, '--yes']);
    expect(done.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('from the cli');
    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"decision":"approve"');
    expect(audit).not.toContain('from the cli'); // arguments are hashed, never written raw
  });

  it('a tool error exits 1; bad JSON and unknown servers exit 2', async () => {
    const err = await mooring([
      'mcp',
      'call',
      'files',
      'read_text_file',
      JSON.stringify({ path: '/etc/hostname' }),
      '--json',
    ]);
    expect(err.code).toBe(1);
    expect(JSON.parse(err.stdout).isError).toBe(true);
    expect((await mooring(['mcp', 'call', 'files', 'read_text_file', '{not json'])).code).toBe(2);
    const unknown = await mooring(['mcp', 'call', 'nope', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/mooring mcp list/);
  });

  it('arguments that do not fit the input schema exit 2 with what the tool takes, before the server sees them', async () => {
    const missing = await mooring(['mcp', 'call', 'every', 'get-sum', '{"a": 1}']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      'error: The arguments for get-sum on "every" do not fit its input schema: b is required (number).\n' +
        'It takes:\n  a (number, required): First number\n  b (number, required): Second number\n' +
        'For example: {"a":0,"b":0}\n',
    );
    expect(missing.stderr).toContain(`hint: mooring mcp call every get-sum '{"a":0,"b":0}'`);
    const wrong = await mooring(['mcp', 'call', 'every', 'get-sum', '{"a": "x", "b": 2}', '--json']);
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ ok: false, code: 'usage' });
    expect(JSON.parse(wrong.stdout).error).toMatch(
      /^The arguments for get-sum on "every" do not fit .*\ba: /,
    );
    // What the call repairs anyway (a number as a string) is not refused.
    const repaired = await mooring(['mcp', 'call', 'every', 'get-sum', '{"a": "3", "b": 2}']);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toContain('5');
  });

  it('a usage error points at the help of the command that was mistyped', async () => {
    const missing = await mooring(['mcp', 'add']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'name'");
    expect(missing.stderr).toContain('(see: mooring mcp add --help)');
    const typo = await mooring(['mcp', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean list?)');
    expect(typo.stderr).toContain('(see: mooring mcp --help)');
    const top = await mooring(['mcpp']);
    expect(top.stderr).toContain('(see: mooring --help)');
  });

  it('refuses an untrusted command (exit 3) with a hint, and runs it once trusted', async () => {
    const script = join(fsRoot, 'server.sh');
    writeFileSync(script, `#!/bin/sh\nexec node ${EVERYTHING} stdio\n`, { mode: 0o755 });
    expect((await mooring(['mcp', 'add', 'shelly', '--', script])).code).toBe(0);
    const refused = await mooring(['mcp', 'call', 'shelly', 'echo', '{"message":"x"}']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/not a known runtime/);
    expect(refused.stderr).toMatch(/--trust/);
    const trusted = await mooring(['mcp', 'call', 'shelly', 'echo', '{"message":"trusted"}', '--trust']);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain('trusted');
  });

  it('imports a Claude Desktop file only with consent', async () => {
    const file = join(fsRoot, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({ mcpServers: { imported: { command: 'node', args: [EVERYTHING, 'stdio'] } } }),
    );
    const noConsent = await mooring(['mcp', 'import', file]);
    expect(noConsent.code).toBe(3);
    expect(noConsent.stderr).toContain(`node ${EVERYTHING} stdio`);
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain('"imported"');
    const yes = await mooring(['mcp', 'import', file, '--yes']);
    expect(yes.code).toBe(0);
    expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).toContain('"imported"');
  });

  it('an invalid config file is reported with line and column and never overwritten', async () => {
    const file = join(home, 'mcp_servers.json');
    const before = readFileSync(file, 'utf8');
    const broken = before.replace('"every"', '"every server"');
    writeFileSync(file, broken);
    const res = await mooring(['mcp', 'add', 'more', '--', 'node', EVERYTHING, 'stdio']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/mcp_servers\.json:\d+:\d+/);
    expect(readFileSync(file, 'utf8')).toBe(broken);
    writeFileSync(file, before);
  });
});
