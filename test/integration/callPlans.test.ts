// The call path on real servers (ARCHITECTURE.md, "The path of one tool call"): a name is resolved once
// per revision, the verdict is decided at every call, and each input of it — the tool's fingerprint, a
// remembered approval, the server's tool filter, the YOLO switch — takes effect on the very next call
// after it changes (every input in turn, at random: verdictInputs.test.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { callTarget } from '../../src-main/core/calls/callTarget';
import { runToolCall } from '../../src-main/core/calls/toolCallRunner';
import { buildCatalog } from '../../src-main/core/catalog/catalog';
import { MooringCore } from '../../src-main/core/mooringCore';
import { SessionPool } from '../../src-main/core/mcp/sessionPool';
import { ApprovalBroker } from '../../src-main/core/safety/approvalBroker';
import { ApprovalStore } from '../../src-main/core/safety/approvalStore';
import { AuditLog } from '../../src-main/core/safety/auditLog';
import { serverIdentity } from '../../src-main/core/safety/toolFingerprint';
import { toolPinsPath } from '../../src-main/core/safety/toolPins';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { FILESYSTEM, RUN_TS, fixtureStdio, fixturePath, tempDir, waitFor } from '../helpers/servers';

/** Calls that would ask are refused at once (nobody to ask), so a test reads the decision from the outcome. */
const unattended = { interactive: false, client: 'test' } as const;
const NEEDS_APPROVAL = { code: 'refused', message: expect.stringMatching(/needs your approval/) };

describe('call plans through the core', () => {
  let core: MooringCore;
  let root: string;
  let home: string;

  beforeAll(async () => {
    home = tempDir('mooring-plans-');
    root = tempDir('mooring-plans-files-');
    writeFileSync(
      join(home, 'mcp_servers.json'),
      JSON.stringify({
        servers: [
          { name: 'files', command: 'node', args: [FILESYSTEM, root] },
          { name: 'rp', command: 'node', args: [RUN_TS, fixturePath('rugPull.ts')] },
        ],
      }),
    );
    core = await MooringCore.open({
      home,
      secretStore: new MemorySecretStore(),
      env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
    });
    await core.start();
    // Both sessions ready before any test: a session that becomes ready later moves the revision, and the
    // first test counts catalog reads within one revision.
    await waitFor(
      () => core.servers.statuses().filter((s) => s.state === 'ready').length === 2,
      'both servers ready',
    );
  }, 60_000);
  afterAll(() => core?.close());

  it('a name is resolved once: later calls of the same tool read no catalog', async () => {
    await core.tools.call('mcp__files__list_directory', { path: root }, unattended);
    // The first sight of both servers' tools is pinned (safety/toolPins.ts): once it is on disk, one more
    // call takes in the file's new stamp, and from then on nothing moves the revision.
    const pins = toolPinsPath(home);
    await waitFor(
      () =>
        existsSync(pins) &&
        /list_directory[\s\S]*send_note|send_note[\s\S]*list_directory/.test(readFileSync(pins, 'utf8')),
      'both servers’ tools pinned on disk',
    );
    await core.tools.call('mcp__files__list_directory', { path: root }, unattended);
    const reads = vi.spyOn(core.tools, 'catalog');
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (await core.tools.call('mcp__files__list_directory', { path: root }, unattended)).decision,
        ).toBe('auto');
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('YOLO on and off applies to the very next call', async () => {
    const write = (name: string) =>
      core.tools.call('mcp__files__write_file', { path: join(root, name), content: 'x' }, unattended);
    await expect(write('a.txt')).rejects.toMatchObject(NEEDS_APPROVAL);
    await expect(write('a.txt')).rejects.toMatchObject(NEEDS_APPROVAL);
    await core.settings.update((s) => ({ ...s, yolo: true }));
    expect((await write('b.txt')).decision).toBe('auto');
    expect((await write('c.txt')).decision).toBe('auto');
    await core.settings.update((s) => ({ ...s, yolo: false }));
    await expect(write('d.txt')).rejects.toMatchObject(NEEDS_APPROVAL);
  });

  it('a tool turned off in the filter is refused on the very next call, and runs again when turned on', async () => {
    const list = () => core.tools.call('mcp__files__list_directory', { path: root }, unattended);
    expect((await list()).decision).toBe('auto');
    await core.servers.setToolEnabled('files', 'list_directory', false);
    await expect(list()).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/excludeTools/),
    });
    await core.servers.setToolEnabled('files', 'list_directory', true);
    expect((await list()).decision).toBe('auto');
  });

  it('an "always allow" runs the next call unasked; a changed tool asks again on the very next call', async () => {
    const send = () => core.tools.call('mcp__rp__send_note', { note: 'hi' }, unattended);
    await expect(send()).rejects.toMatchObject(NEEDS_APPROVAL);
    core.approvals.once('requested', (r) =>
      core.approvals.answer(r.id, { outcome: 'always', decidedBy: 'user:test' }),
    );
    expect((await core.tools.call('mcp__rp__send_note', { note: 'hi' }, { client: 'test' })).decision).toBe(
      'always',
    );
    expect((await send()).decision).toBe('auto');
    expect((await send()).decision).toBe('auto');

    const before = core.tools.catalog().get('mcp__rp__send_note')!.description;
    await core.tools.call('mcp__rp__rug_pull', {}, { ...unattended, preApproved: true });
    await waitFor(
      () => core.tools.catalog().get('mcp__rp__send_note')!.description !== before,
      'the changed send_note in the catalog',
    );
    await expect(send()).rejects.toMatchObject({
      code: 'refused',
      message: expect.stringMatching(/changed since you chose "always allow"/),
    });
  });
});

describe('call plans over a pool and the approval store', () => {
  it('a revoked approval asks again on the very next call, an entry held by the caller included', async () => {
    const dir = tempDir('mooring-plans-store-');
    const pool = new SessionPool();
    const config = fixtureStdio('engineServer.ts', 'engine');
    await pool.sync([config]);
    const gate = {
      store: await ApprovalStore.open(dir),
      broker: new ApprovalBroker(),
      audit: new AuditLog(dir),
      yolo: () => false,
    };
    try {
      // The chat's way: one entry resolved in its own catalog, held across calls.
      const entry = buildCatalog([{ server: 'engine', config, tools: pool.get('engine')!.tools() }]).get(
        'mcp__engine__garbage',
      )!;
      let seq = 0;
      const run = () =>
        runToolCall(
          { gate, broker: gate.broker, publish: (e) => ({ ...e, seq: ++seq }) },
          callTarget(entry, pool.get('engine')),
          {},
          unattended,
        );
      await expect(run()).rejects.toMatchObject(NEEDS_APPROVAL);
      const def = entry.handle.definition;
      await gate.store.remember({
        identity: serverIdentity(config),
        tool: {
          name: def.name,
          description: def.description,
          inputSchema: def.inputSchema,
          annotations: def.annotations,
        },
        decidedBy: 'user:test',
      });
      expect((await run()).decision).toBe('auto');
      expect((await run()).decision).toBe('auto');
      await gate.store.forget('engine', 'garbage');
      await expect(run()).rejects.toMatchObject(NEEDS_APPROVAL);
      const audit = await gate.audit.read();
      expect(audit.map((e) => e.decision)).toEqual(['refuse', 'auto', 'auto', 'refuse']);
    } finally {
      await pool.closeAll();
      await gate.audit.close();
    }
  });
});
