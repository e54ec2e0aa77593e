// `mooring mcp list` and the Servers screen agree (cli/liveServerStatus.ts): while an app (here `mooring
// web`; the desktop app answers the same relay) runs on the home, the list prints each server's live status
// from it (asked over the relay in run/ with its token), in the badge's words, and says where the status
// came from. A real Streamable HTTP
// server (server-everything) is killed mid-run: the list shows it failed, with the same reason the UI's
// event stream carries. The real compiled CLI as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateText, type SessionStatus } from '../../shared/session';
import type { UiEvent } from '../../shared/wire';
import { runMooring } from '../helpers/cli';
import { ROOT, startEverythingHttp, tempDir } from '../helpers/servers';
import { webEvents, type WebEvents } from '../helpers/webEvents';

/** The first GET of the printed link: its cookie. */
function login(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve(String(res.headers['set-cookie']).split(';')[0]!);
    })
      .on('error', reject)
      .end();
  });
}

/** The latest status the UI was told for `name` once `match` accepts it. */
const statusOf = (events: WebEvents, name: string, match: (s: SessionStatus) => boolean, what: string) =>
  events.until((all: UiEvent[]) => {
    const last = all.findLast((e) => e.type === 'status' && e.status.name === name);
    return last?.type === 'status' && match(last.status) ? last.status : undefined;
  }, what);

describe('mooring mcp list beside a running mooring web', () => {
  const home = tempDir('mooring-list-live-');
  let web: ChildProcess;
  let webErr = '';
  let everything: Awaited<ReturnType<typeof startEverythingHttp>>;
  let events: WebEvents;
  // Stopped once: a child killed by a signal keeps exitCode null, so a second stop would wait forever.
  let stopped: Promise<void> | undefined;
  const stopEverything = () => (stopped ??= everything.stop());

  beforeAll(async () => {
    everything = await startEverythingHttp('streamableHttp');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [{ name: 'far', transport: 'http', url: everything.url }] }),
    );
  });
  afterAll(async () => {
    events?.close();
    if (web?.exitCode === null) {
      const exited = new Promise((r) => web.once('exit', r));
      web.kill('SIGTERM');
      await exited;
    }
    if (everything) await stopEverything();
  });

  it('with no instance running, says the status is not shown and why', async () => {
    const list = await runMooring(home, ['mcp', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^● far\s+http/m);
    expect(list.stdout).toContain(
      'Status: not shown; no Mooring app (desktop or `mooring web`) runs on this home.',
    );
  });

  it('shows the live status of the running instance, and a server killed mid-run as failed with its reason', async () => {
    web = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'web', '--json', '--no-open'], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    web.stderr!.on('data', (d: Buffer) => (webErr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      web.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve((JSON.parse(line) as { url: string }).url);
      });
      web.once('exit', (code) => reject(new Error(`mooring web exited (${code}): ${webErr}`)));
    });
    events = webEvents(new URL(url).origin, await login(url));
    await statusOf(events, 'far', (s) => s.state === 'ready', 'far ready in the running instance');

    const ready = await runMooring(home, ['mcp', 'list']);
    expect(ready.code, ready.stderr).toBe(0);
    expect(ready.stdout).toMatch(/^● far\s+ready\s+http/m);
    expect(ready.stdout).toContain(
      `Status: live from mooring web on this home (process ${web.pid}), as its Servers screen shows it.`,
    );

    // Killed mid-run: the instance finds the break, reconnects, then gives up; the card says failed.
    await stopEverything();
    const failed = await statusOf(events, 'far', (s) => s.state === 'failed', 'far failed after the kill');
    expect(stateText(failed, true)).toBe('failed');

    const dead = await runMooring(home, ['mcp', 'list']);
    expect(dead.code, dead.stderr).toBe(0);
    expect(dead.stdout).toMatch(/^● far\s+failed\s+http/m);
    // The reason, as the card's error block has it (its first line).
    expect(dead.stdout).toContain(`    ${failed.error!.message.split('\n')[0]}\n`);
    expect(dead.stdout).toContain(`(process ${web.pid})`);

    const json = await runMooring(home, ['mcp', 'list', '--json']);
    const rows = JSON.parse(json.stdout) as { name: string; status?: string; statusFrom?: string }[];
    expect(rows.find((r) => r.name === 'far')).toMatchObject({
      status: 'failed',
      statusFrom: `mooring web (process ${web.pid})`,
    });
  });
});
