// SIGTERM/SIGINT close every session once: no server process (nor its grandchildren) outlives the CLI.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, RUN_TS, fixturePath, isAlive, tempDir, waitFor } from '../helpers/servers';

describe.each(['SIGTERM', 'SIGINT'] as const)('mooring on %s', (signal) => {
  it('closes every session and kills the servers’ process groups', async () => {
    const home = tempDir('mooring-sig-');
    const pids = join(home, 'pids.txt');
    const calls = join(home, 'calls.txt');
    writeFileSync(pids, '');
    writeFileSync(calls, '');
    const server = (name: string) => ({
      name,
      command: 'node',
      args: [RUN_TS, fixturePath('engineServer.ts')],
      env: { FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pids, FIXTURE_CALL_FILE: calls },
    });
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [server('one'), server('two')] }),
    );
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/mooring.mjs'), 'mcp', 'call', 'one', 'slow', '{"ms":60000}'],
      {
        env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
        stdio: 'ignore',
      },
    );
    // `mcp call` starts only the server it needs: one fixture and its grandchild.
    const started = await waitFor(() => {
      const list = readFileSync(pids, 'utf8').trim().split('\n').filter(Boolean).map(Number);
      return list.length >= 2 ? list : undefined;
    }, 'the server and its grandchild to start');
    // The signal comes while the call is in flight: the server says when it is running it.
    await waitFor(() => readFileSync(calls, 'utf8').includes('slow started'), 'the call to reach the server');
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    child.kill(signal);
    // Either signal stops a call the same way: cancelled at its server, exit 130 (cli/exitCodes.ts).
    expect(await exited).toBe(130);
    await waitFor(() => started.every((p) => !isAlive(p)), 'every server process to die');
  });
});
