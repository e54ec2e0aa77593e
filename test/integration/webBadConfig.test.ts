// `mooring web` (what `npm start` runs without Electron) on a home whose mcp_servers.json has a typo: it
// keeps serving, says on stderr which line is wrong and what to do, the UI's server list answers with the
// same error, and the fixed file starts the servers without a restart (MooringCore.start watches even
// when the first sync fails). The real compiled CLI as a child process, server-everything behind it.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../src-main/core/api/router';
import { EVERYTHING, ROOT, tempDir } from '../helpers/servers';
import { webEvents } from '../helpers/webEvents';

const BROKEN = '{"servers": [ {"name": "everything", "command": "node",, } ]}';

/** The first GET of the printed link: its cookie. */
function login(url: string): Promise<{ status: number; cookie: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie']).split(';')[0]! });
    })
      .on('error', reject)
      .end();
  });
}

describe('mooring web with an mcp_servers.json it cannot read', () => {
  let child: ChildProcess;
  let stderr = '';
  let url = '';
  const home = tempDir('mooring-web-bad-config-');

  /** Resolves when stderr has said `text`, or rejects with what it said if the process ends first. */
  const stderrSays = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stderr.includes(text)) return;
        child.stderr!.off('data', check);
        resolve();
      };
      child.stderr!.on('data', check);
      child.once('exit', (code) => reject(new Error(`mooring web exited (${code}): ${stderr}`)));
      check();
    });

  beforeAll(async () => {
    writeFileSync(join(home, 'mcp_servers.json'), BROKEN);
    child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'web', '--json', '--no-open'], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      child.once('exit', (code) => reject(new Error(`mooring web exited (${code}): ${stderr}`)));
    });
  });
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('keeps serving, names the line, and starts the servers once the file is fixed', async () => {
    await stderrSays('Mooring keeps running and reads the file again when it changes.');
    expect(stderr).toContain('mooring web: the servers did not start:');
    expect(stderr).toContain(`${join(home, 'mcp_servers.json')}:1:56: expected a property name`);
    expect(stderr).toContain('Fix ');
    expect(child.exitCode).toBeNull();

    const { status, cookie } = await login(url);
    expect(status).toBe(303);
    const client = createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${new URL(url).origin}/trpc`, headers: { cookie } })],
    });
    const err = await client.servers.list.query().catch((e: unknown) => e);
    expect((err as { data?: { mooring?: { code: string } } }).data?.mooring?.code).toBe('config_invalid');

    // What the UI hears from now on: the session the fixed file starts reports ready (or failed).
    const events = webEvents(new URL(url).origin, cookie);
    await events.connected;
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'] }] }),
    );
    // The watcher picks the fixed file up; wait for the session it starts to report ready.
    const state = await events.until(
      (all) =>
        all.find(
          (e) =>
            e.type === 'status' &&
            e.status.name === 'everything' &&
            (e.status.state === 'ready' || e.status.state === 'failed'),
        ),
      'the everything session to end its start',
    );
    events.close();
    expect(state.type === 'status' && state.status.state, stderr).toBe('ready');
    const rows = await client.servers.list.query();
    expect(rows.find((r) => r.config.name === 'everything')?.status?.state).toBe('ready');
    expect(child.exitCode).toBeNull();
  });
});
