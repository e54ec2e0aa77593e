// The core behind the Servers, Tools and Permissions screens, with real servers: every way of adding a
// server applies the default safe set; a tool toggle reconfigures the session in place (same process);
// Retry restarts a failed server; the Logs view's lifecycle lines and traffic; every standing permission is
// listed with its pin and can be revoked, after which the next call asks again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { EVERYTHING, MEMORY, tempDir } from '../helpers/servers';

const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

async function emptyCore() {
  const home = tempDir('mooring-screens-core-');
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
  });
  cores.push(core);
  await core.start();
  return { core, home };
}

const fileServers = (home: string) =>
  JSON.parse(readFileSync(join(home, 'mcp_servers.json'), 'utf8')).servers as Array<{
    name: string;
    excludeTools?: string[];
  }>;
const memoryEntry = (home: string) => ({
  command: 'node',
  args: [MEMORY],
  env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
});
const DELETES = ['delete_entities', 'delete_observations', 'delete_relations'];

function answerNext(core: MooringCore, outcome: 'approve' | 'always' | 'deny' | 'conversation') {
  return new Promise<ApprovalRequest>((resolve) =>
    core.approvals.once('requested', (r) => {
      core.approvals.answer(r.id, { outcome, decidedBy: 'user:test' });
      resolve(r);
    }),
  );
}

describe('servers and permissions through the core', { timeout: 120_000 }, () => {
  it('an import gets the default safe set and says so; a tool toggle keeps the same server process', async () => {
    const { core, home } = await emptyCore();
    const text = JSON.stringify({ mcpServers: { memory: memoryEntry(home) } });
    const r = await core.servers.import({ text, fileName: 'claude_desktop_config.json' });
    expect(r.added).toEqual(['memory']);
    expect(r.safeDefaults.memory).toMatchObject({
      disabledCount: 3,
      message: '3 destructive tools disabled by default',
    });
    expect((fileServers(home)[0]!.excludeTools ?? []).sort()).toEqual(DELETES);
    const pid = core.servers.statuses()[0]!.pid;
    expect(pid).toBeGreaterThan(0);
    // Toggling one tool rewrites the filter; the session (and its process) goes on.
    await core.servers.setToolEnabled('memory', 'delete_entities', true);
    expect(fileServers(home)[0]!.excludeTools ?? []).not.toContain('delete_entities');
    expect(core.servers.statuses()[0]).toMatchObject({ state: 'ready', pid });
    expect(core.tools.list('memory').find((t) => t.tool === 'delete_entities')!.enabled).toBe(true);
    // So does a policy change.
    await core.servers.setPolicy('memory', 'always-ask');
    expect(core.servers.statuses()[0]).toMatchObject({ state: 'ready', pid });
    // The Tools screen's reason for what is still off: the kind, not the config's words.
    const off = core.tools.list('memory').find((t) => t.tool === 'delete_relations')!;
    expect(core.tools.offReason(off)).toMatchObject({ kind: 'safe-default' });
    const logs = core.servers.logs('memory').map((l) => l.text);
    expect(logs.some((t) => /^handshake done in \d+ ms \(pid \d+\)/.test(t))).toBe(true);
    expect(logs).toContain(
      'tools listed: 9 (create_entities, create_relations, add_observations, delete_entities, delete_observations, delete_relations, read_graph, search_nodes, open_nodes)',
    );
    expect(
      logs.some((t) => t.includes('3 destructive tools disabled by default (the default safe set)')),
    ).toBe(true);
    // The safe set is applied once: a reconnect does not turn delete_entities off again.
    await core.servers.sessions.restart('memory');
    expect(fileServers(home)[0]!.excludeTools ?? []).not.toContain('delete_entities');
  });

  it('an add says what its safe set did when another sync (the file watch) started the server first', async () => {
    const { core, home } = await emptyCore();
    // The file's watch sees the add's write and syncs before the add's own sync: its connect is the one
    // the add has to wait for (on a loaded machine it happens; here it is made to happen).
    const safeSet = core.servers.sessions.safeSet;
    const expectNew = safeSet.expect.bind(safeSet);
    let watchSync: Promise<void> | undefined;
    safeSet.expect = (names) => {
      watchSync = core.servers.sessions.sync();
      return expectNew(names);
    };
    const added = await core.servers.add({ name: 'memory', ...memoryEntry(home) });
    expect(watchSync).toBeDefined();
    expect(added.safeDefaults).toMatchObject({
      disabledCount: 3,
      message: '3 destructive tools disabled by default',
    });
    expect((fileServers(home)[0]!.excludeTools ?? []).sort()).toEqual(DELETES);
    await watchSync;
  });

  it('a server added with start: false (mooring mcp add) gets its safe set when it first connects', async () => {
    const { core, home } = await emptyCore();
    const added = await core.servers.add({ name: 'memory', ...memoryEntry(home) }, { start: false });
    expect(added.safeDefaults).toEqual({ disabledCount: 0, pending: true });
    expect(fileServers(home)[0]!.excludeTools ?? []).toEqual([]);
    // Another process (the app) picks it up from the file: a fresh core on the same home.
    const later = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    cores.push(later);
    await later.start();
    expect((fileServers(home)[0]!.excludeTools ?? []).sort()).toEqual(DELETES);
    await expect(
      later.tools.call('mcp__memory__delete_entities', { entityNames: ['x'] }),
    ).rejects.toMatchObject({
      code: 'refused',
    });
  });

  it('an install (here from a mooring:// link) gets the default safe set and says so', async () => {
    const { core, home } = await emptyCore();
    const config = Buffer.from(JSON.stringify(memoryEntry(home))).toString('base64');
    const plan = await core.install.plan(`mooring://install?name=memory&config=${config}`);
    const done = await core.install.install(plan.id, {});
    expect(done.safeDefaults).toMatchObject({
      disabledCount: 3,
      message: '3 destructive tools disabled by default',
    });
    expect((fileServers(home)[0]!.excludeTools ?? []).sort()).toEqual(DELETES);
    // Installed without starting it (mooring mcp install): the safe set waits for its first connect.
    const later = await core.install.plan(`mooring://install?name=memory2&config=${config}`);
    const saved = await core.install.install(later.id, { start: false });
    expect(saved.safeDefaults).toEqual({ disabledCount: 0, pending: true });
  });

  it('Retry restarts a failed server once its command works; traffic is recorded only on request', async () => {
    const { core } = await emptyCore();
    const dir = tempDir('mooring-late-');
    const script = join(dir, 'server.mjs');
    await core.servers.add({ name: 'late', command: 'node', args: [script, 'stdio'] });
    const failed = core.servers.statuses()[0]!;
    expect(failed.state).toBe('failed');
    expect(failed.error!.message).toMatch(
      /exited \(code 1\)[\s\S]*Last lines of the server's stderr:[\s\S]*Cannot find module/,
    );
    writeFileSync(script, `await import(${JSON.stringify(EVERYTHING)});\n`);
    const after = await core.servers.sessions.restart('late');
    expect(after).toMatchObject({ state: 'ready' });
    expect(core.servers.logs('late').some((l) => l.source === 'rpc')).toBe(false);
    core.servers.sessions.setTracing('late', true);
    await core.servers.sessions.refresh('late');
    const rpc = core.servers
      .logs('late')
      .filter((l) => l.source === 'rpc')
      .map((l) => l.text);
    expect(rpc.some((t) => t.startsWith('→ ') && t.includes('"method":"tools/list"'))).toBe(true);
    expect(rpc.some((t) => t.startsWith('← ') && t.includes('"tools":['))).toBe(true);
    core.servers.sessions.setTracing('late', false);
  });

  it('permissions: "always allow" is listed with its pin and revoked; the next call asks again', async () => {
    const { core, home } = await emptyCore();
    await core.servers.add({ name: 'memory', ...memoryEntry(home) }, { safeDefaults: false });
    const call = () =>
      core.tools.call('mcp__memory__delete_entities', { entityNames: ['nobody'] }, { client: 'test' });
    const asked = answerNext(core, 'always');
    await call();
    await asked;
    let view = await core.permissions.list();
    expect(view.tools).toEqual([
      expect.objectContaining({
        server: 'memory',
        tool: 'delete_entities',
        fingerprint: expect.stringMatching(/^sha256:/),
      }),
    ]);
    expect(view.tools[0]!.at).toBeGreaterThan(Date.now() - 60_000);
    await call(); // remembered: no question
    // A server whose policy runs tools unasked is listed too, and revoking sets it back to asking.
    await core.servers.setPolicy('memory', 'trust-all');
    view = await core.permissions.list();
    expect(view.servers).toEqual([{ server: 'memory', policy: 'trust-all' }]);
    await core.permissions.revoke({ kind: 'server', server: 'memory' });
    await core.permissions.revoke({ kind: 'tool', server: 'memory', tool: 'delete_entities' });
    view = await core.permissions.list();
    expect(view.tools).toEqual([]);
    expect(view.servers).toEqual([]);
    const again = answerNext(core, 'deny');
    await expect(call()).rejects.toMatchObject({ code: 'refused' });
    expect((await again).tool).toBe('delete_entities');
    expect(existsSync(join(home, 'approvals.json'))).toBe(true);
  });

  it('allow for this conversation: asked once per conversation, listed, and revoked', async () => {
    const { core, home } = await emptyCore();
    await core.servers.add({ name: 'memory', ...memoryEntry(home) }, { safeDefaults: false });
    const call = (conversationId: string) =>
      core.tools.call('mcp__memory__delete_entities', { entityNames: ['x'] }, { conversationId });
    const first = answerNext(core, 'conversation');
    await call('A');
    expect((await first).conversationId).toBe('A');
    await call('A');
    const other = answerNext(core, 'deny');
    await expect(call('B')).rejects.toMatchObject({ code: 'refused' });
    await other;
    const view = await core.permissions.list();
    expect(view.conversations.map((c) => [c.conversationId, c.tool])).toEqual([['A', 'delete_entities']]);
    await core.permissions.revoke({ kind: 'all' });
    expect((await core.permissions.list()).conversations).toEqual([]);
    const asked = answerNext(core, 'approve');
    await call('A');
    await asked;
  });
});
