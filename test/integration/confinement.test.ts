// Confined stdio servers end to end (docs/confinement.md), real processes: the probe fixture (v2 server SDK)
// reads a canary, writes in $HOME and connects to a loopback port — all three work unconfined and fail
// confined, each refusal recorded with its path or host; `mooring mcp sandbox --allow-write` makes the
// write work on the next call; a start that needs a refused write says what to allow; a confined server
// reconnects confined; the proxy lets a listed host through and records the rest; where confinement cannot
// run a confined server does not start and says what to install.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxViolation } from '@shared/confinement';
import type { SessionStatus } from '@shared/session';
import { resultText } from '@shared/toolResult';
import { descendants } from '../../e2e/harness';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { runMooring } from '../helpers/cli';
import { EVERYTHING, ROOT, RUN_TS, fixturePath, tempDir, waitFor } from '../helpers/servers';

const linux = process.platform === 'linux';

let userHome: string;
let canary: string;
let tcp: Server;
let port: number;

const probe = (name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}) => ({
  name,
  command: 'node',
  args: [RUN_TS, fixturePath('sandboxProbe.ts')],
  env: { HOME: userHome, ...env },
  // The test is about what the sandbox lets through, not about approvals.
  policy: 'trust-all',
  ...extra,
});

beforeAll(async () => {
  userHome = tempDir('mooring-confine-user-');
  mkdirSync(join(userHome, '.ssh'));
  canary = join(userHome, '.ssh', 'canary');
  writeFileSync(canary, 'CANARY');
  tcp = createServer((s) => s.end('hello from loopback\n'));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  port = (tcp.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => tcp.close(() => r())));

async function openCore(servers: unknown[], env: NodeJS.ProcessEnv = {}) {
  const home = tempDir('mooring-confine-home-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1', ...env },
  });
  return { core, home };
}

const call = async (core: MooringCore, server: string, tool: string, args: Record<string, unknown>) =>
  resultText((await core.tools.call(`mcp__${server}__${tool}`, args, { client: 'test' })).result);

/** Resolves with the first `n` refusals recorded for `server` from now on. */
function refusals(core: MooringCore, server: string, n: number): Promise<SandboxViolation[]> {
  const seen: SandboxViolation[] = [];
  return new Promise((resolve) => {
    const stop = core.confinement.onViolation((v) => {
      if (v.server !== server) return;
      seen.push(v);
      if (seen.length === n) {
        stop();
        resolve(seen);
      }
    });
  });
}

/** The next status of `server` in `state`. */
function nextStatus(
  core: MooringCore,
  server: string,
  state: SessionStatus['state'],
): Promise<SessionStatus> {
  return new Promise((resolve) => {
    const on = (s: SessionStatus) => {
      if (s.name !== server || s.state !== state) return;
      core.off('status', on);
      resolve(s);
    };
    core.on('status', on);
  });
}

describe.runIf(linux)('confined stdio servers', { timeout: 120_000 }, () => {
  it('the probe reads, writes and connects unconfined; confined all three fail, are recorded, and an allowed write works on the next call', async () => {
    const { core, home } = await openCore([
      probe('open'),
      probe('shut', { sandboxEnabled: true, sandbox: {} }),
    ]);
    try {
      await core.start({ watch: true });
      const written = join(userHome, 'probe.txt');
      expect(await call(core, 'open', 'read_file', { path: canary })).toBe('ok: CANARY');
      expect(await call(core, 'open', 'write_file', { path: written, content: 'x' })).toBe(
        `ok: wrote ${written}`,
      );
      expect(await call(core, 'open', 'connect', { host: '127.0.0.1', port })).toBe(
        'ok: hello from loopback',
      );

      const shutWrite = join(userHome, 'shut.txt');
      const recorded = refusals(core, 'shut', 3);
      expect(await call(core, 'shut', 'read_file', { path: canary })).toBe('error: EACCES');
      expect(await call(core, 'shut', 'write_file', { path: shutWrite, content: 'x' })).toBe('error: EROFS');
      expect(await call(core, 'shut', 'connect', { host: '127.0.0.1', port })).toBe('error: ECONNREFUSED');
      // Each is seen by its own watcher (files, the proxy), so they may arrive in any order.
      const three = await recorded;
      expect(three.map((v) => [v.kind, v.target]).sort()).toEqual(
        [
          ['read', canary],
          ['write', shutWrite],
          ['network', `127.0.0.1:${port}`],
        ].sort(),
      );
      expect(existsSync(shutWrite)).toBe(false);
      // The server card's count and the log say the same.
      const row = (await core.servers.rows()).find((r) => r.config.name === 'shut')!;
      expect(row.confinement).toMatchObject({ state: 'confined', violations: 3, observesFiles: true });
      const log = core.servers.logs('shut').map((l) => l.text);
      expect(log).toContain(
        `[sandbox] refused: open for writing ${shutWrite}. To allow it: mooring mcp sandbox shut --allow-write ${shutWrite}`,
      );

      // The terminal's answer: the app's session restarts with it, and the next write goes through.
      const shown = await runMooring(home, ['mcp', 'sandbox', 'shut', '--show']);
      expect(shown.stdout).toContain(`allow it: mooring mcp sandbox shut --allow-write ${shutWrite}`);
      expect(shown.stdout).toContain('not offered: no confined server may read it');
      const restarted = nextStatus(core, 'shut', 'ready');
      const allowed = await runMooring(home, ['mcp', 'sandbox', 'shut', '--allow-write', shutWrite]);
      expect(allowed.stderr).toContain(`shut may write ${shutWrite}`);
      expect(allowed.code).toBe(0);
      await restarted;
      expect(await call(core, 'shut', 'write_file', { path: shutWrite, content: 'allowed' })).toBe(
        `ok: wrote ${shutWrite}`,
      );
      expect(readFileSync(shutWrite, 'utf8')).toBe('allowed');
      const readAgain = refusals(core, 'shut', 1);
      expect(await call(core, 'shut', 'read_file', { path: canary })).toBe('error: EACCES');
      await readAgain;
      // What was allowed is settled; the rest stays listed (the read, refused once more, counts twice).
      expect((await core.confinement.listViolations('shut')).map((v) => [v.kind, v.count])).toEqual([
        ['network', 1],
        ['read', 2],
      ]);
      const logs = await runMooring(home, ['mcp', 'logs', 'shut']);
      expect(logs.stdout).toContain(`[sandbox] refused: connect 127.0.0.1:${port}`);
    } finally {
      await core.close();
    }
  });

  it('a server that cannot start confined says which access was refused and what to allow', async () => {
    const state = join(userHome, 'state.json');
    const { core } = await openCore([
      probe('needs-write', { sandboxEnabled: true }, { PROBE_WRITE_AT_START: state }),
    ]);
    try {
      await core.start();
      const status = core.servers.statuses().find((s) => s.name === 'needs-write')!;
      expect(status.state).toBe('failed');
      expect(status.error?.message).toContain(
        `[sandbox] refused: open for writing ${state}. To allow it: mooring mcp sandbox needs-write --allow-write ${state}`,
      );
      expect(status.error?.message).toContain('sandbox-probe: cannot write its state file');
    } finally {
      await core.close();
    }
  });

  it('a confined server reconnects confined after its process dies', async () => {
    const { core } = await openCore([probe('phoenix', { sandboxEnabled: true })]);
    try {
      await core.start();
      const bwrap = core.servers.statuses().find((s) => s.name === 'phoenix')!.pid!;
      expect(readFileSync(`/proc/${bwrap}/cmdline`, 'utf8')).toMatch(/bwrap/);
      // The server's own process: the innermost node (tsx runs the fixture in a child of its own).
      const inner = await waitFor(
        () =>
          descendants(bwrap, 'sandboxProbe.ts').find(
            (p) =>
              /^(\S*\/)?node\0/.test(readFileSync(`/proc/${p}/cmdline`, 'utf8')) &&
              descendants(p, 'sandboxProbe.ts').length === 0,
          ),
        'the sandboxed server',
      );
      core.on(
        'status',
        (s) => s.name === 'phoenix' && console.log('STATUS', s.state, s.pid, s.error?.message),
      );
      core.on('log', (l) => l.server === 'phoenix' && console.log('LOG', l.source, l.text.slice(0, 300)));
      console.log('KILL', inner, readFileSync(`/proc/${inner}/cmdline`, 'utf8'));
      const back = nextStatus(core, 'phoenix', 'ready');
      process.kill(inner, 'SIGKILL');
      const status = await back;
      expect(status.pid).not.toBe(bwrap);
      expect(readFileSync(`/proc/${status.pid}/cmdline`, 'utf8')).toMatch(/bwrap/);
      expect(await call(core, 'phoenix', 'write_file', { path: join(userHome, 'x'), content: 'x' })).toBe(
        'error: EROFS',
      );
    } finally {
      await core.close();
    }
  });

  it('through the proxy a listed host is reached and an unlisted one refused and recorded; a listed loopback port is reached directly', async () => {
    const web = createHttpServer((_req, res) => res.end('hello over http'));
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', () => r()));
    const webPort = (web.address() as { port: number }).port;
    const { core } = await openCore([
      probe('netted', {
        sandboxEnabled: true,
        sandbox: { network: { allowedDomains: [`localhost:${webPort}`, `127.0.0.1:${port}`] } },
      }),
    ]);
    try {
      await core.start();
      expect(await call(core, 'netted', 'http_get', { url: `http://localhost:${webPort}/` })).toBe(
        'ok: 200 hello over http',
      );
      const refused = refusals(core, 'netted', 1);
      expect(await call(core, 'netted', 'http_get', { url: `http://127.0.0.1:${webPort}/` })).toBe(
        'error: 403',
      );
      expect((await refused)[0]).toMatchObject({
        kind: 'network',
        target: `127.0.0.1:${webPort}`,
        operation: 'an HTTP GET through the proxy',
        allow: { domain: `127.0.0.1:${webPort}` },
      });
      expect(await call(core, 'netted', 'connect', { host: '127.0.0.1', port })).toBe(
        'ok: hello from loopback',
      );
    } finally {
      await core.close();
      web.close();
    }
  });

  it('where confinement cannot run, a confined server does not start and says what to install; run unconfined on request', async () => {
    const env = { MOORING_SANDBOX_TOOLS_PATH: tempDir('mooring-no-tools-') };
    const { core, home } = await openCore(
      [probe('wants-box', { sandboxEnabled: true }), probe('plain')],
      env,
    );
    try {
      await core.start();
      const statuses = core.servers.statuses();
      expect(statuses.find((s) => s.name === 'plain')!.state).toBe('ready');
      const failed = statuses.find((s) => s.name === 'wants-box')!;
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatchObject({
        code: 'confinement_unavailable',
        message: expect.stringContaining('bubblewrap (bwrap) is not installed'),
        hint: expect.stringContaining('sudo apt install bubblewrap socat strace'),
      });
      const row = (await core.servers.rows()).find((r) => r.config.name === 'wants-box')!;
      expect(row.confinement).toMatchObject({
        state: 'unavailable',
        reason: 'bubblewrap (bwrap) is not installed',
      });
      const test = await runMooring(home, ['mcp', 'test', 'wants-box'], { env });
      expect(test.code).toBe(1);
      expect(test.stdout).toContain('confinement cannot run here: bubblewrap (bwrap) is not installed');
      expect(test.stdout).toContain('hint: Install them: sudo apt install bubblewrap socat strace');

      await core.confinement.runUnconfinedWhereUnavailable('wants-box', true);
      await core.servers.sessions.restart('wants-box');
      expect(await call(core, 'wants-box', 'read_file', { path: canary })).toBe('ok: CANARY');
      expect(
        core.servers
          .logs('wants-box')
          .map((l) => l.text)
          .join('\n'),
      ).toContain('it runs unconfined, as chosen for this server');
    } finally {
      await core.close();
    }
  });

  it('an MCP App view of a confined server opens and calls its tools; roots reach a confined server', async () => {
    const loader = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
    const folder = tempDir('mooring-confine-roots-');
    const home = tempDir('mooring-confine-apps-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [
          {
            name: 'apps',
            command: 'node',
            args: ['--import', loader, fixturePath('appsServer.ts')],
            sandboxEnabled: true,
          },
          { name: 'everything', command: 'node', args: [EVERYTHING, 'stdio'], sandboxEnabled: true },
        ],
      }),
    );
    const core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      offerAppViews: true,
      workspace: folder,
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    try {
      await core.start();
      core.apps.setSandbox(
        { originOf: () => 'http://localhost:1', pageUrl: (id) => `http://localhost:1/view/${id}` },
        'http://127.0.0.1:2',
      );
      const view = await core.apps.open({ server: 'apps', tool: 'show_counter', conversationId: 'c1' });
      expect(view?.uri).toBe('ui://apps-fixture/counter.html');
      const r = await core.apps.callTool({
        viewId: view!.viewId,
        name: 'increment',
        arguments: { count: 4 },
      });
      expect(r.structuredContent).toEqual({ count: 5 });
      const roots = await call(core, 'everything', 'get-roots-list', {});
      expect(roots).toContain(realpathSync(folder));
    } finally {
      await core.close();
    }
  });

  it('mooring serve relays a confined server; kill -9 of serve leaves no confined process', async () => {
    const home = tempDir('mooring-confine-serve-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({ servers: [probe('boxed', { sandboxEnabled: true })] }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, 'bin/mooring.mjs'), 'serve', '--stdio'],
      env: { ...(process.env as Record<string, string>), MOORING_HOME: home, MOORING_NO_SHELL_PATH: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'confine-test', version: '1.0.0' });
    await client.connect(transport);
    const serve = transport.pid!;
    try {
      const r = await client.callTool({
        name: 'mcp__boxed__write_file',
        arguments: { path: join(userHome, 'relayed.txt'), content: 'x' },
      });
      expect((r.content as { text: string }[])[0]!.text).toBe('error: EROFS');
      const inside = [...descendants(serve, 'bwrap'), ...descendants(serve, 'sandboxProbe.ts')];
      expect(inside.length).toBeGreaterThanOrEqual(2);
      process.kill(serve, 'SIGKILL');
      const alive = (p: number) => {
        try {
          const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
          return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
        } catch {
          return false;
        }
      };
      await waitFor(
        () => !inside.some(alive),
        `every confined process to end (left: ${inside.filter(alive).join(', ')})`,
        5000,
      );
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
