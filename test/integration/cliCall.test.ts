// `mooring mcp call` while a tool runs, through the real command (a real pseudo-terminal where a person is at
// the keyboard): progress on stderr; Ctrl-C, SIGINT and SIGTERM cancel the call at its server
// (notifications/cancelled) and end with "cancelled" and exit 130, never a retry that did not happen; a server's
// questions — a 2026-07-28 input_required form and a 2025 elicitation alike — are asked at the terminal, declined
// at once without one, and a server that keeps asking is stopped at a cap the error names; a link the server
// needs opened is named by its host.
import { spawn } from 'node:child_process';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../shared/config';
import { runMooring } from '../helpers/cli';
import { BIN, STACK_TRACE } from '../helpers/cliPipes';
import { startEraHttp } from '../helpers/eraServers';
import { CTRL_C, mooringInPty } from '../helpers/pty';
import { fixtureStdio, tempDir, waitFor } from '../helpers/servers';

let home: string;
let cancelLog: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  home = tempDir('mooring-call-home-');
  cancelLog = join(home, 'cancel.log');
  const [modern, legacy] = await Promise.all([startEraHttp('modern'), startEraHttp('legacy')]);
  stops.push(modern.stop, legacy.stop);
  const servers: ServerConfig[] = [
    fixtureStdio('terminalServer.ts', 'term', { CANCEL_LOG: cancelLog }),
    modern.config('modern'),
    legacy.config('legacy'),
    fixtureStdio('urlConsentServer.ts', 'consent', { CONSENT_URL: 'https://login.example.test/connect?x=1' }),
  ];
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
}, 60_000);
afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

const cancellations = () => (existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '');

describe('a long call at the terminal', () => {
  it('shows its progress; Ctrl-C cancels it at the server, says cancelled and exits 130', async () => {
    const before = cancellations().split('\n').length;
    const pty = mooringInPty(home, ['mcp', 'call', 'term', 'long']);
    await pty.waitFor(/term\/long: \d+% step \d+ \(\d+\.\d s\)/);
    pty.type(CTRL_C);
    expect(await pty.exited, pty.output()).toBe(130);
    expect(pty.output()).toMatch(/cancelled/);
    expect(pty.output()).not.toMatch(/retry|failed twice/i);
    expect(pty.output()).not.toMatch(STACK_TRACE);
    await waitFor(() => cancellations().split('\n').length > before, 'the server to hear the cancellation');
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`from a script: progress lines on stderr; ${signal} cancels it at the server, exit 130`, async () => {
      const before = cancellations().split('\n').length;
      const child = spawn(process.execPath, [BIN, 'mcp', 'call', 'term', 'long', '--json'], {
        env: { ...process.env, MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const progressed = new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/term\/long: \d+% step \d+/.test(stderr)) resolve();
        }),
      );
      const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
      await progressed;
      child.kill(signal);
      expect(await exited, stderr).toBe(130);
      expect(stderr).not.toMatch(/retry|failed twice/i);
      expect(stderr).not.toMatch(STACK_TRACE);
      expect(JSON.parse(stdout)).toMatchObject({
        ok: false,
        code: 'cancelled',
        error: expect.stringMatching(/cancelled/),
      });
      await waitFor(() => cancellations().split('\n').length > before, 'the server to hear the cancellation');
    });
});

describe('a server that asks for input during mcp call', () => {
  for (const [name, what] of [
    ['modern', '2026-07-28 input_required'],
    ['legacy', '2025 elicitation'],
  ] as const) {
    it(`${what}: the form is asked at the terminal and the answer reaches the tool`, async () => {
      const pty = mooringInPty(home, ['mcp', 'call', name, 'ask']);
      await pty.waitFor(`${name} asks for input: What is your name?`);
      await pty.waitFor('Answer it? (no declines) [y/N]');
      pty.type('y\r');
      await pty.waitFor('name (string): ');
      pty.type('Ada\r');
      expect(await pty.exited, pty.output()).toBe(0);
      expect(pty.output()).toContain('hello Ada');
    });

    it(`${what}: without a terminal it is declined at once, and said so`, async () => {
      const r = await runMooring(home, ['mcp', 'call', name, 'ask']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('no name (decline)');
      expect(r.stderr).toContain(
        `${name} asked for some input (a form); declined: there is no terminal to ask`,
      );
    });
  }

  it('a 2026 server that asks forever is stopped at the cap, which the error names', async () => {
    const r = await runMooring(home, ['mcp', 'call', 'modern', 'ask_forever', '--json']);
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/after 8 rounds/),
    });
  });

  it('a link the server needs opened first is named by its host', async () => {
    const r = await runMooring(home, ['mcp', 'call', 'consent', 'connect_account', '{"account":"a"}']);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/finish a step in a browser first, at login\.example\.test/);
  });
});
