// Refusals at the terminal name the exact command that fixes them, and that command exists and works: the
// test reads the command out of the refusal, runs it as written (in a pseudo-terminal when it asks a person),
// and the refused call then runs. A tool held back as new is said to be new (not "listed in excludeTools");
// a disabled server does not run; a project folder's server edited since its approval is to be approved
// again; a template's variables are given with --var; the quick-config server is listed and tested.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../shared/config';
import { runMooring } from '../helpers/cli';
import { mooringInPty } from '../helpers/pty';
import { EVERYTHING, fixtureStdio, tempDir } from '../helpers/servers';

let home: string;
let ws: string;
const everything = { command: 'node', args: [EVERYTHING, 'stdio'] };
const mooring = (args: string[], env: Record<string, string> = {}) => runMooring(home, args, { env });

/** The `mooring …` command a hint names, as arguments: up to a parenthesis or the end of the sentence. */
function namedCommand(stderr: string): string[] {
  const hint = stderr.split('\n').find((l) => l.startsWith('hint:')) ?? '';
  const m = /mooring (mcp [^()\n]*?)\s*(?:\(|\.?$)/.exec(hint);
  expect(m, `a command in: ${hint}`).not.toBeNull();
  return m![1]!.trim().split(/\s+/);
}

const writeServers = (servers: ServerConfig[] | Record<string, unknown>[]) =>
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));

beforeAll(() => {
  home = tempDir('mooring-hints-home-');
  ws = tempDir('mooring-hints-ws-');
  const script = join(ws, 'server.sh');
  writeFileSync(script, `#!/bin/sh\nexec node ${EVERYTHING} stdio\n`, { mode: 0o755 });
  writeServers([
    fixtureStdio('terminalServer.ts', 'tidy'),
    { name: 'every', ...everything },
    { name: 'shelly', command: script },
    { name: 'resting', ...everything, enabled: false },
  ]);
});

describe('refusals name a command that works', () => {
  it('a new tool is held back as new, and the command it names releases it', async () => {
    expect((await mooring(['mcp', 'tools', 'tidy'])).code).toBe(0); // the server as first seen
    const servers = [
      fixtureStdio('terminalServer.ts', 'tidy', { EXTRA_TOOL: '1' }),
      { name: 'every', ...everything },
      { name: 'shelly', command: join(ws, 'server.sh') },
      { name: 'resting', ...everything, enabled: false },
    ];
    writeServers(servers);
    const listed = await mooring(['mcp', 'tools', 'tidy']);
    expect(listed.stdout).toMatch(/mcp__tidy__sweep {2}\[excluded\]\n {4}it is new since/);
    const refused = await mooring(['mcp', 'call', 'tidy', 'sweep', '--yes']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/held back until you turn it on/);
    expect(refused.stderr).not.toMatch(/excludeTools/);
    const fix = namedCommand(refused.stderr);
    expect(fix).toEqual(['mcp', 'tools', 'tidy', '--enable', 'sweep']);
    expect((await mooring(fix)).code).toBe(0);
    const ran = await mooring(['mcp', 'call', 'tidy', 'sweep', '--yes']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('swept');
    // And back off, by the same command's other half.
    expect((await mooring(['mcp', 'tools', 'tidy', '--disable', 'sweep'])).code).toBe(0);
    expect((await mooring(['mcp', 'call', 'tidy', 'sweep', '--yes'])).code).toBe(3);
  }, 120_000);

  it('a command outside the allowlist names mooring mcp trust NAME, which lets it run', async () => {
    const refused = await mooring(['mcp', 'call', 'shelly', 'echo', '{"message":"x"}']);
    expect(refused.code, refused.stderr).toBe(3);
    const fix = namedCommand(refused.stderr);
    expect(fix).toEqual(['mcp', 'trust', 'shelly']);
    expect((await mooring(fix)).code).toBe(0);
    const ran = await mooring(['mcp', 'call', 'shelly', 'echo', '{"message":"trusted"}']);
    expect(ran.code, ran.stderr).toBe(0);
  });

  it('a disabled server is refused with mooring mcp enable NAME, and does not run until then', async () => {
    const refused = await mooring(['mcp', 'call', 'resting', 'echo', '{"message":"x"}']);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/"resting" is disabled/);
    const fix = namedCommand(refused.stderr);
    expect(fix).toEqual(['mcp', 'enable', 'resting']);
    expect((await mooring(fix)).code).toBe(0);
    const ran = await mooring(['mcp', 'call', 'resting', 'echo', '{"message":"awake"}']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('awake');
  });

  it('a template read without its variable names --var, which works', async () => {
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const refused = await mooring(['mcp', 'read', 'every', template]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--var resourceId=VALUE');
    expect(refused.stderr).not.toContain('--arg');
    const ran = await mooring(['mcp', 'read', 'every', template, '--var', 'resourceId=7']);
    expect(ran.code, ran.stderr).toBe(0);
  });

  it('a project server edited since its approval is to be approved again, by the command named', async () => {
    const file = join(ws, '.mooring', 'mcp_servers.json');
    mkdirSync(join(ws, '.mooring'), { recursive: true });
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'proj', ...everything }] }));
    expect((await mooring(['mcp', 'approve', 'proj', '--workspace', ws, '--yes'])).code).toBe(0);
    const call = ['mcp', 'call', 'proj', 'echo', '{"message":"again"}', '--workspace', ws];
    expect((await mooring(call)).code).toBe(0);
    // A git pull changes the entry: it must be reviewed again, and the call says how.
    writeFileSync(file, JSON.stringify({ servers: [{ name: 'proj', ...everything, env: { MODE: 'x' } }] }));
    const refused = await mooring(call);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/"proj" in .* changed since you approved it/);
    const fix = namedCommand(refused.stderr);
    expect(fix).toEqual(['mcp', 'approve', 'proj', '--workspace', ws]);
    const pty = mooringInPty(home, fix);
    await pty.waitFor('Approve proj? [y/N]');
    pty.type('y\r');
    expect(await pty.exited, pty.output()).toBe(0);
    const ran = await mooring(call);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('again');
  }, 120_000);
});

describe('the quick-config server', () => {
  const quick = { MOORING_MCP_SERVER_STDIO: `node|${EVERYTHING}|stdio` };

  it('is in mcp list, marked, and mcp test env tests it', async () => {
    const list = await mooring(['mcp', 'list'], quick);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^● env .* \(MOORING_MCP_SERVER_\*, this shell only\)$/m);
    const json = JSON.parse((await mooring(['mcp', 'list', '--json'], quick)).stdout) as ServerConfig[];
    expect(json.find((s) => s.name === 'env')).toMatchObject({ quickConfig: true });
    const test = await mooring(['mcp', 'test', 'env', '--json'], quick);
    expect(test.code, test.stderr).toBe(0);
    expect(JSON.parse(test.stdout)).toMatchObject({ ok: true });
  });
});
