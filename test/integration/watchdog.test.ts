// No server process outlives the Mooring process that started it (ARCHITECTURE.md, "Server processes never
// outlive Mooring"), by any exit path: a clean close, and kill -9 of `mooring serve --stdio` and of
// `mooring web`. The servers: server-everything, and a fixture that ignores stdin EOF and SIGTERM and forks
// a grandchild that calls setsid (out of reach of a process-group kill), and one that exits on stdin EOF and
// leaves a double-forked daemon (found by the tag its environment inherits). Real processes, /proc polled.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { descendants } from '../../e2e/harness';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import { EVERYTHING, ROOT, cfg, fixturePath, tempDir, waitFor } from '../helpers/servers';

/** Gone, or a zombie nobody has reaped yet (it runs nothing). */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** The watchdog processes started by `owner` (their command line ends with the owner's pid). */
function watchdogsOf(owner: number): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const cmd = readFileSync(`/proc/${n}/cmdline`, 'utf8');
        return cmd.includes('mooring-watchdog') && cmd.endsWith(`\0${owner}\0`) && !gone(Number(n));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const pidsIn = (file: string) => readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);

const stubborn = (pidFile: string) => ({
  name: 'stubborn',
  command: 'node',
  args: [fixturePath('stubbornServer.mjs')],
  env: { FIXTURE_PID_FILE: pidFile },
});

const children: ChildProcess[] = [];
const leftovers: number[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const p of leftovers.splice(0))
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone, as it should be */
    }
});

describe.runIf(process.platform === 'linux')('server processes never outlive Mooring', () => {
  it('a clean close also ends a grandchild that left the process group (setsid)', async () => {
    const pidFile = join(tempDir('mooring-wd-close-'), 'pids');
    writeFileSync(pidFile, '');
    const actor = new SessionActor({ config: cfg(stubborn(pidFile)) });
    await actor.start();
    const [server, grandchild] = await waitFor(() => {
      const p = pidsIn(pidFile);
      return p.length >= 2 ? p : undefined;
    }, 'the fixture and its grandchild');
    leftovers.push(server!, grandchild!);
    expect(gone(grandchild!)).toBe(false);
    await actor.close();
    await waitFor(
      () => gone(server!) && gone(grandchild!),
      'the server and its setsid grandchild to end',
      5000,
    );
  });

  it('a short-lived command (mooring mcp test) exits at once; what it closed still ends', async () => {
    const home = tempDir('mooring-wd-cli-');
    const pidFile = join(home, 'pids');
    writeFileSync(pidFile, '');
    writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers: [stubborn(pidFile)] }));
    const cli = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'mcp', 'test', 'stubborn'], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: 'ignore',
    });
    children.push(cli);
    expect(await new Promise((r) => cli.once('exit', r))).toBe(0);
    const servers = pidsIn(pidFile);
    leftovers.push(...servers);
    expect(servers).toHaveLength(2);
    await waitFor(() => servers.every(gone), `the server and its grandchild to end`, 5000);
  });

  it.each([
    ['serve --stdio', ['serve', '--stdio'], /MCP on stdio/],
    ['web', ['web', '--json', '--no-open'], /"url"/],
  ])('kill -9 of mooring %s: every server process is gone within 5 s', async (_label, args, ready) => {
    const home = tempDir('mooring-wd-kill-');
    const pidFile = join(home, 'pids');
    writeFileSync(pidFile, '');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }, stubborn(pidFile)],
      }),
    );
    const mooring = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), ...args], {
      cwd: ROOT,
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(mooring);
    let output = '';
    mooring.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    mooring.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    await waitFor(() => ready.test(output), `mooring ${args[0]} to start`, 30_000);

    const [fixture, grandchild] = await waitFor(
      () => {
        const p = pidsIn(pidFile);
        return p.length >= 2 ? p : undefined;
      },
      'the fixture and its grandchild',
      30_000,
    );
    const everything = await waitFor(
      () => descendants(mooring.pid!, 'server-everything')[0],
      'server-everything',
      30_000,
    );
    const servers = [everything, fixture!, grandchild!];
    leftovers.push(...servers);
    expect(servers.filter(gone)).toEqual([]);
    const watchdogs = watchdogsOf(mooring.pid!);

    const exited = new Promise((r) => mooring.once('exit', r));
    mooring.kill('SIGKILL');
    await exited;
    await waitFor(
      () => servers.every(gone),
      `every server process to end (left: ${servers.filter((p) => !gone(p))})`,
      5000,
    );
    // One watchdog did it, and then left too.
    expect(watchdogs).toHaveLength(1);
    await waitFor(() => watchdogs.every(gone), 'the watchdog to exit', 5000);
  });

  it('kill -9 of mooring serve --stdio: a daemon a server left (double fork, setsid) is gone too', async () => {
    const home = tempDir('mooring-wd-daemon-');
    const pidFile = join(home, 'pids');
    writeFileSync(pidFile, '');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [
          {
            name: 'daemonizing',
            command: 'node',
            args: [fixturePath('daemonizingServer.mjs')],
            env: { FIXTURE_PID_FILE: pidFile },
          },
        ],
      }),
    );
    const mooring = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'serve', '--stdio'], {
      cwd: ROOT,
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(mooring);
    const [server, daemon] = await waitFor(
      () => {
        const p = pidsIn(pidFile);
        return p.length >= 2 ? p : undefined;
      },
      'the server and its daemon',
      30_000,
    );
    leftovers.push(server!, daemon!);
    await waitFor(() => watchdogsOf(mooring.pid!).length === 1, 'the watchdog', 30_000);
    expect(gone(daemon!)).toBe(false);
    const exited = new Promise((r) => mooring.once('exit', r));
    mooring.kill('SIGKILL');
    await exited;
    await waitFor(() => gone(server!) && gone(daemon!), 'the server and its daemon to end', 5000);
  });
});
