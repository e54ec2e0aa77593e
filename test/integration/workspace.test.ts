// Workspaces on real processes: a workspace server overriding a global one, a VS Code file
// with inputs started after approval, an edited file asking again, a broken file beside working globals,
// safe retries with a server killed mid-call, and the quick config from the environment.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerConfig } from '@shared/config';
import { resultText } from '@shared/toolResult';
import { MooringError } from '../../src-main/core/errors';
import { SessionActor } from '../../src-main/core/mcp/sessionActor';
import type { CallToolResult } from '../../src-main/core/mcp/types';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import {
  approveWorkspaceServer,
  approvedServers,
  scanWorkspace,
} from '../../src-main/core/workspace/discovery';
import { envServer, logMasker } from '../../src-main/core/workspace/envServer';
import { WorkspaceApprovals } from '../../src-main/core/workspace/workspaceApprovals';
import { resolveWorkspaceInputs, type AskInput } from '../../src-main/core/workspace/workspaceInputs';
import { effectiveServers } from '../../src-main/core/workspace/workspaceServers';
import { withSafeRetry } from '../../src-main/core/mcp/safeRetry';
import { EVERYTHING, fixtureStdio, nextLog, startEverythingHttp, tempDir, waitFor } from '../helpers/servers';

const text = (r: CallToolResult) =>
  ((r.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

const actors: SessionActor[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all([...actors.splice(0).map((a) => a.close()), ...cleanups.splice(0).map((c) => c())]);
});

async function startActor(config: ServerConfig, prepare?: (c: ServerConfig) => Promise<ServerConfig>) {
  const a = new SessionActor({
    config,
    ...(prepare ? { prepare: (c) => prepare(c) } : {}),
    // Reconnect at once: the retry tests wait for the new session, not for backoff.
    backoff: { maxAttempts: 5, baseMs: 50, capMs: 200, stableMs: 60_000 },
  });
  actors.push(a);
  await a.start();
  return a;
}

async function rejection(p: Promise<unknown>): Promise<MooringError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'expected the promise to reject').toBeInstanceOf(MooringError);
  return err as MooringError;
}

let ws: string;
let home: string;
let approvals: WorkspaceApprovals;
const put = (rel: string, body: unknown) => {
  const file = join(ws, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2));
};
beforeEach(async () => {
  ws = tempDir('mooring-ws-');
  home = tempDir('mooring-home-');
  approvals = await WorkspaceApprovals.open(home);
});

const everythingEntry = (extra: Record<string, unknown> = {}) => ({
  command: 'node',
  args: [EVERYTHING, 'stdio'],
  ...extra,
});

describe('workspace servers', () => {
  it('a workspace server overrides the global one of the same name, for that workspace only', async () => {
    const globals = [fixtureStdio('engineServer.ts', 'tools')];
    put('.mooring/mcp_servers.json', { servers: [{ name: 'tools', ...everythingEntry() }] });
    const secrets = new MemorySecretStore();

    // Not approved yet: the workspace runs the globals.
    let scan = await scanWorkspace(ws, { approvals });
    expect(effectiveServers(globals, scan).servers).toEqual(globals);
    await approveWorkspaceServer({ offered: scan.servers[0]!, approvals, secrets });
    scan = await scanWorkspace(ws, { approvals });
    const eff = effectiveServers(globals, scan);
    expect(eff.overrides.map((o) => o.name)).toEqual(['tools']);

    const inWorkspace = await startActor(eff.servers[0]!);
    const outside = await startActor(globals[0]!);
    // Same name, different servers: server-everything in the workspace, the engine fixture elsewhere.
    expect(inWorkspace.tool('get-sum')).toBeDefined();
    expect(inWorkspace.tool('pid')).toBeUndefined();
    expect(text(await inWorkspace.tool('get-sum')!.call({ a: 2, b: 3 }))).toContain('5');
    expect(outside.tool('get-sum')).toBeUndefined();
    expect(text(await outside.tool('echo')!.call({ text: 'global' }))).toBe('echo: global');
  });

  it('a .vscode/mcp.json with inputs runs only after approval; the input is asked once, stored, substituted', async () => {
    put(
      '.vscode/mcp.json',
      `{
        // checked into the repo by a teammate
        "inputs": [{ "type": "promptString", "id": "acme-key", "description": "Acme API key", "password": true }],
        "servers": {
          "acme": {
            "type": "stdio",
            "command": "node",
            "args": ["${EVERYTHING}", "stdio"],
            "env": { "ACME_API_KEY": "\${input:acme-key}", "ACME_ROOT": "\${workspaceFolder}" },
          },
        },
      }`,
    );
    const secrets = new MemorySecretStore();
    const ask = vi.fn<AskInput>(async () => 'k-live-4242');
    const scan = await scanWorkspace(ws, { approvals });
    const [offered] = scan.servers;
    expect(offered!.status).toBe('pending');
    expect(offered!.commandLine).toBe(
      `ACME_API_KEY=••• ACME_ROOT=${scan.workspace} node ${EVERYTHING} stdio`,
    );
    expect(await approvedServers(ws, { approvals })).toEqual([]); // offered, never started silently

    await approveWorkspaceServer({ offered: offered!, approvals, secrets, ask });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0]![0]).toMatchObject({ id: 'acme-key', password: true });

    const prepare = (c: ServerConfig) => resolveWorkspaceInputs(c, { workspace: scan.workspace, secrets });
    for (let run = 0; run < 2; run++) {
      // Each start (a new process) reads the stored value; nobody is asked again.
      const [config] = await approvedServers(ws, { approvals });
      expect(config!.env.ACME_API_KEY).toBe('${input:acme-key}');
      const a = await startActor(config!, prepare);
      const env = JSON.parse(text(await a.tool('get-env')!.call({}))) as Record<string, string>;
      expect(env.ACME_API_KEY).toBe('k-live-4242');
      expect(env.ACME_ROOT).toBe(scan.workspace);
      await a.close();
    }
    expect(ask).toHaveBeenCalledTimes(1);
    expect(readFileSync(approvals.file, 'utf8')).not.toContain('k-live-4242');
  });

  it('an edited workspace file asks again, and until then the global server runs', async () => {
    const globals = [fixtureStdio('engineServer.ts', 'tools')];
    put('.cursor/mcp.json', { mcpServers: { tools: everythingEntry() } });
    const secrets = new MemorySecretStore();
    const first = await scanWorkspace(ws, { approvals });
    await approveWorkspaceServer({ offered: first.servers[0]!, approvals, secrets });
    expect((await approvedServers(ws, { approvals })).map((s) => s.name)).toEqual(['tools']);

    put('.cursor/mcp.json', { mcpServers: { tools: everythingEntry({ env: { EXTRA: 'added later' } }) } });
    const scan = await scanWorkspace(ws, { approvals });
    expect(scan.servers[0]).toMatchObject({
      status: 'changed',
      approvedCommandLine: `node ${EVERYTHING} stdio`,
      commandLine: `EXTRA='added later' node ${EVERYTHING} stdio`,
    });
    const eff = effectiveServers(globals, scan);
    expect(eff.servers).toEqual(globals);
    expect(eff.pending.map((p) => p.name)).toEqual(['tools']);
    const a = await startActor(eff.servers[0]!);
    expect(text(await a.tool('echo')!.call({ text: 'still global' }))).toBe('echo: still global');

    await approveWorkspaceServer({ offered: scan.servers[0]!, approvals, secrets });
    const [approved] = await approvedServers(ws, { approvals });
    expect(approved!.env).toEqual({ EXTRA: 'added later' });
  });

  it('a malformed workspace file is reported with its location while the global servers keep working', async () => {
    const globals = [fixtureStdio('engineServer.ts', 'tools')];
    put(
      '.mooring/mcp_servers.json',
      '{\n  "servers": [\n    { "name": "tools", "command": "node", "args": "oops" }\n  ]\n}\n',
    );
    const scan = await scanWorkspace(ws, { approvals });
    const eff = effectiveServers(globals, scan);
    expect(eff.servers).toEqual(globals);
    expect(eff.errors).toHaveLength(1);
    const file = join(scan.workspace, '.mooring/mcp_servers.json');
    expect(eff.errors[0]!.error.message).toMatch(new RegExp(`^${file}:3:\\d+: servers\\[0\\]\\.args: `));
    const a = await startActor(eff.servers[0]!);
    expect(text(await a.tool('echo')!.call({ text: 'fine' }))).toBe('echo: fine');
  });
});

describe('safe retries with a server killed mid-call', () => {
  it('a read-only tool succeeds through the one retry on the reconnected session', async () => {
    const a = await startActor(fixtureStdio('engineServer.ts', 'engine'));
    const slow = a.tool('slow')!;
    const pid1 = Number(text(await a.tool('pid')!.call({})));
    const onRetry = vi.fn();
    let calls = 0;
    // Killed once the server is running the first attempt: the retry is what answers.
    void nextLog(a, /slow started/).then(() => process.kill(pid1, 'SIGKILL'));
    const result = withSafeRetry(
      () => {
        calls++;
        // The first attempt would outlast the test: only the kill ends it.
        return slow.call({ ms: calls === 1 ? 60_000 : 10 });
      },
      { name: 'engine/slow', annotations: slow.definition.annotations },
      { onRetry },
    );
    expect(text(await result)).toBe('slept 10');
    expect(calls).toBe(2);
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(onRetry.mock.calls[0]![0]).toMatchObject({ code: 'transport_closed' });
    const pid2 = Number(text(await a.tool('pid')!.call({})));
    expect(pid2).not.toBe(pid1);
    expect(a.status().metrics.reconnects).toBe(1);
  });

  it('the counting fixture: read-only ran again on the new process; destructive ran once and failed clearly', async () => {
    const counter = join(tempDir('mooring-counter-'), 'calls.log');
    writeFileSync(counter, '');
    const a = await startActor(fixtureStdio('counterServer.ts', 'counter', { COUNTER_FILE: counter }));
    const count = async (tool: string) => Number(text(await a.tool('calls')!.call({ tool })));
    const lines = () => readFileSync(counter, 'utf8').split('\n').filter(Boolean);
    const killWhenCalled = async (tool: string, n: number) => {
      const line = await waitFor(
        () => lines().filter((l) => l.startsWith(`${tool} `))[n - 1],
        `${tool} to run`,
      );
      process.kill(Number(line.split(' ')[1]), 'SIGKILL');
    };

    const read = a.tool('read_slow')!;
    const readResult = withSafeRetry(() => read.call({ ms: 800 }), read.definition);
    await killWhenCalled('read_slow', 1);
    expect(text(await readResult)).toMatch(/^read after 800 ms by \d+$/);
    expect(await count('read_slow')).toBe(2);

    const write = a.tool('write_slow')!;
    const onRetry = vi.fn();
    const writeResult = withSafeRetry(
      () => write.call({ ms: 30_000 }),
      { name: 'counter/write_slow', annotations: write.definition.annotations },
      { onRetry },
    );
    await killWhenCalled('write_slow', 1);
    const err = await rejection(writeResult);
    expect(err.code).toBe('transport_closed');
    expect(err.message).toMatch(/"counter\/write_slow" was interrupted.*not retried/s);
    expect(onRetry).not.toHaveBeenCalled();
    // The session came back (the count is read on the new process) and the write ran exactly once.
    expect(await count('write_slow')).toBe(1);
    const writer = lines()
      .find((l) => l.startsWith('write_slow '))!
      .split(' ')[1];
    expect(text(await a.tool('pid')!.call({}))).not.toBe(writer);
  });
});

describe('quick config from the environment', () => {
  it('MOORING_MCP_SERVER_STDIO runs a server named env through the core, with secret args masked in logs', async () => {
    const env = {
      ...process.env,
      MOORING_MCP_SERVER_STDIO: `node|${EVERYTHING}|stdio|--api-key=sk-live-abcdef123456`,
    };
    const server = envServer(env)!;
    const core = await MooringCore.open({
      home,
      env,
      secretStore: new MemorySecretStore(),
      extraServers: [server],
    });
    cleanups.push(() => core.close());
    const mask = logMasker(server);
    const logged: string[] = [];
    core.on('log', (l) => logged.push(mask(`[${l.server}] ${l.text}`)));
    await core.startOnly(['env']);
    const out = await core.tools.call(
      'mcp__env__echo',
      { message: 'from env' },
      { preApproved: true, interactive: false },
    );
    expect(resultText(out.result)).toContain('from env');
    expect(existsSync(join(home, 'mcp_servers.json'))).toBe(false); // never written to a file
    // What would be logged about the server: its command line, masked.
    logged.push(mask(`starting env: ${server.command} ${server.args.join(' ')}`));
    expect(logged.join('\n')).not.toContain('sk-live-abcdef123456');
    expect(logged.at(-1)).toBe(`starting env: node ${EVERYTHING} stdio --api-key=••••••`);
  });

  it('MOORING_MCP_SERVER_URL runs a Streamable HTTP server named env; logs show the host only', async () => {
    const http = await startEverythingHttp('streamableHttp');
    cleanups.push(http.stop);
    const url = `${http.url}?token=tok-0123456789`;
    const server = envServer({ MOORING_MCP_SERVER_URL: url })!;
    expect(server).toMatchObject({ name: 'env', transport: 'http', url });
    const a = await startActor(server);
    expect(text(await a.tool('echo')!.call({ message: 'over http' }))).toContain('over http');
    const host = new URL(http.url).host;
    expect(logMasker(server)(`POST ${url} failed`)).toBe(`POST http://${host} failed`);
    const lines = a.logs.toArray().map((l) => logMasker(server)(l.text));
    expect(lines.join('\n')).not.toContain('tok-0123456789');
  });
});
