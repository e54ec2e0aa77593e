// One process runs a home's schedules (docs/schedules.md, "Schedules"): a real `mooring serve --stdio` takes the
// lease, the CLI and another process know who has it and do not run schedules, and when the owner is killed
// (SIGKILL: no release) the other process takes over at its next look.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScheduleService } from '../../src-main/core/schedules/scheduleService';
import { runMooring } from '../helpers/cli';
import { ROOT, tempDir } from '../helpers/servers';

const children: ChildProcess[] = [];
let svc: ScheduleService | undefined;

afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await svc?.close();
  svc = undefined;
});

function serveStdio(home: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/mooring.mjs'), 'serve', '--stdio'], {
      env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Printed once the schedules' lease was asked for.
      if (stderr.includes('MCP on stdio')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`mooring serve exited (${code}): ${stderr}`)));
  });
}

describe('who runs the schedules', () => {
  it('mooring serve owns them, the others know, and a second process takes over when it dies', async () => {
    const home = tempDir('mooring-owner-');
    const serve = await serveStdio(home);

    const list = await runMooring(home, ['schedule', 'list', '--json']);
    expect(JSON.parse(list.stdout).owner).toMatchObject({ kind: 'mooring serve', pid: serve.pid });
    const text = await runMooring(home, ['schedule', 'list']);
    expect(text.stderr).toContain(`Schedules run in mooring serve (pid ${serve.pid}).`);

    svc = new ScheduleService({
      home,
      checkModel: () => undefined,
      checkToolSet: () => undefined,
      runPrompt: () => Promise.reject(new Error('no run in this test')),
    });
    const owners: { mine: boolean; kind?: string }[] = [];
    const tookOver = new Promise<void>((resolve) =>
      svc!.on('event', (e) => {
        if (e.type !== 'owner') return;
        owners.push({ mine: e.status.mine, kind: e.status.owner?.kind });
        if (e.status.mine) resolve();
      }),
    );
    await svc.own('the test');
    expect(svc.loop.started).toBe(false);
    expect(await svc.status()).toMatchObject({ mine: false, owner: { kind: 'mooring serve' } });

    serve.kill('SIGKILL');
    await tookOver;
    expect(svc.loop.started).toBe(true);
    expect(owners).toEqual([
      { mine: false, kind: 'mooring serve' },
      { mine: true, kind: 'the test' },
    ]);
    const after = await runMooring(home, ['schedule', 'list', '--json']);
    expect(JSON.parse(after.stdout).owner).toMatchObject({ kind: 'the test', pid: process.pid });
  });
});
