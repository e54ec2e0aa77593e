// Secrets never show (README, "Safety"): a server that prints its API token to stderr, and an error text
// that echoes it, are masked wherever Mooring shows or writes them — `mooring mcp test` (end to end through
// the CLI), the app's Logs view (through the router it uses), session status errors and the audit log.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../shared/session';
import { appRouter, createApiContext } from '../../src-main/core/api/router';
import { createCallerFactory } from '../../src-main/core/api/trpc';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { runMooring } from '../helpers/cli';
import { fixturePath, tempDir, waitFor } from '../helpers/servers';

const TOKEN = 'sk-live-4f9d2c7b1e8a';
const leaks = (text: string) =>
  [TOKEN, Buffer.from(TOKEN).toString('base64').replace(/=+$/, '')].filter((t) => text.includes(t));

const leaky = (name: string, mode: string, env: Record<string, string>) => ({
  name,
  command: 'node',
  args: [fixturePath('leakyServer.mjs')],
  env: { LEAK_MODE: mode, ...env },
});

const mooring = (home: string, args: string[]) => runMooring(home, args, { env: { LEAK_TOKEN: TOKEN } });

describe('mooring mcp test with a server that leaks its token', () => {
  it.each([
    ['in its stderr before it exits', 'exit', /Last lines of the server's stderr/],
    [
      'in the error it answers tools/list with',
      'list-error',
      /upstream 401 for header X-Api-Key: \[redacted\]/,
    ],
  ])('masks the token %s', async (_label, mode, shown) => {
    const home = tempDir('mooring-redact-cli-');
    // The token comes from the environment (${env:LEAK_TOKEN}) under a secret-looking name: no keychain needed.
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [leaky('leaky', mode, { API_TOKEN: '${env:LEAK_TOKEN}' })] }),
    );
    for (const args of [
      ['mcp', 'test', 'leaky', '--json'],
      ['mcp', 'test', 'leaky'],
    ]) {
      const r = await mooring(home, args);
      expect(r.code).toBe(1);
      const all = r.stdout + r.stderr;
      expect(leaks(all), all).toEqual([]);
      expect(all).toMatch(shown);
      expect(all).toContain('[redacted]');
    }
  });

  it('masks the token the server echoes in its serverInfo and a tool’s title and description', async () => {
    const home = tempDir('mooring-redact-echo-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [leaky('leaky', 'serve', { API_TOKEN: '${env:LEAK_TOKEN}' })] }),
    );
    for (const args of [
      ['mcp', 'test', 'leaky', '--json'],
      ['mcp', 'test', 'leaky'],
      ['mcp', 'tools', 'leaky', '--json'],
      ['mcp', 'tools', 'leaky'],
    ]) {
      const r = await mooring(home, args);
      const all = r.stdout + r.stderr;
      expect(r.code, all).toBe(0);
      expect(leaks(all), `${args.join(' ')}: ${all}`).toEqual([]);
      // The human `mcp test` line names neither the server's version nor descriptions.
      if (args[1] === 'tools' || args.includes('--json')) expect(all).toContain('[redacted]');
    }
  });

  it.runIf(process.env.WITH_KEYRING_INNER)('masks a token kept in the keychain', async () => {
    const home = tempDir('mooring-redact-keychain-');
    const add = await mooring(home, [
      'mcp',
      'add',
      'leaky',
      '--env',
      'LEAK_MODE=exit',
      '--secret-env',
      `API_TOKEN=${TOKEN}`,
      '--',
      'node',
      fixturePath('leakyServer.mjs'),
    ]);
    expect(add.code, add.stderr).toBe(0);
    const r = await mooring(home, ['mcp', 'test', 'leaky', '--json']);
    expect(leaks(r.stdout + r.stderr)).toEqual([]);
    expect(r.stdout).toContain('fatal: the upstream rejected key [redacted]');
    await mooring(home, ['mcp', 'remove', 'leaky']);
  });
});

describe('the app’s views of a server that leaks its token (keychain secret)', () => {
  it('Logs (router), live log events, status errors and the audit log show it masked', async () => {
    const home = tempDir('mooring-redact-core-');
    const core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    const live: LogLine[] = [];
    core.on('log', (l) => live.push(l));
    try {
      for (const [name, mode] of [
        ['serving', 'serve'],
        ['failing', 'exit'],
      ] as const)
        await core.servers.add(
          { ...leaky(name, mode, { API_TOKEN: TOKEN }), secretEnv: ['API_TOKEN'] },
          { start: false },
        );
      expect(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).not.toContain(TOKEN);
      await core.start();
      const caller = createCallerFactory(appRouter)(createApiContext(core));
      const logs = await waitFor(async () => {
        const lines = await caller.servers.logs({ name: 'serving' });
        return lines.some((l) => l.text.includes('basic')) ? lines : undefined;
      }, 'the leaky server’s stderr in its Logs');
      const texts = logs.map((l) => l.text).join('\n');
      expect(texts).toContain('API_TOKEN=[redacted]');
      expect(texts).toContain('Authorization: Bearer [redacted]');
      expect(texts).toContain('basic [redacted]');
      expect(leaks(texts)).toEqual([]);
      expect(leaks(live.map((l) => l.text).join('\n'))).toEqual([]);

      const failing = core.servers.statuses().find((s) => s.name === 'failing');
      expect(failing).toMatchObject({ state: 'failed' });
      expect(failing?.error?.message).toContain('rejected key [redacted]');
      expect(leaks(JSON.stringify(core.servers.statuses()))).toEqual([]);

      // The audit log, through the real gate: a caller whose name carries the token (an MCP client's
      // name is whatever that client says).
      await core.tools.call('mcp__serving__echo', {}, { client: `agent using ${TOKEN}` });
      const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
      expect(audit).toContain('"client":"agent using [redacted]"');
      expect(leaks(audit)).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
