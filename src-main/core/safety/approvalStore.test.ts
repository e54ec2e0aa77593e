import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore, approvalsPath } from './approvalStore';
import { MooringError } from '../errors';
import type { FingerprintedTool, ServerIdentity } from './toolFingerprint';

const id: ServerIdentity = { name: 'mem', command: 'node', args: ['server-memory.js'] };
const tool = (name: string, description = 'Creates entities.'): FingerprintedTool => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { names: { type: 'array', items: { type: 'string' } } } },
});

describe('ApprovalStore', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'mooring-approvals-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('persists approvals pinned to the fingerprint, readable by a new instance', async () => {
    const store = await ApprovalStore.open(home);
    await Promise.all([
      store.remember({ identity: id, tool: tool('create'), decidedBy: 'user:ui' }),
      store.remember({ identity: id, tool: tool('delete'), decidedBy: 'user:cli' }),
    ]);
    const again = await ApprovalStore.open(home);
    expect(
      again
        .list()
        .map((e) => e.tool)
        .sort(),
    ).toEqual(['create', 'delete']);
    expect(again.lookup(id, tool('create'))).toMatchObject({ status: 'allowed', decidedBy: 'user:ui' });
    expect(again.lookup(id, tool('other'))).toEqual({ status: 'none' });
    // Same tool name on another server is another approval.
    expect(again.lookup({ ...id, name: 'mem2' }, tool('create'))).toEqual({ status: 'none' });
    if (process.platform !== 'win32') expect((await stat(approvalsPath(home))).mode & 0o777).toBe(0o600);
  });

  it('lapses when the tool or the server command changes, with a diff', async () => {
    const store = await ApprovalStore.open(home);
    await store.remember({ identity: id, tool: tool('create'), decidedBy: 'user:ui' });
    const lapsed = store.lookup(id, tool('create', 'Creates entities and uploads them.'));
    expect(lapsed).toMatchObject({ status: 'lapsed', diff: [{ kind: 'description', change: 'changed' }] });
    const moved = store.lookup({ ...id, args: ['other.js'] }, tool('create'));
    expect(moved).toMatchObject({ status: 'lapsed', diff: [{ kind: 'identity' }] });
    // Approving the new version again makes it allowed again.
    await store.remember({
      identity: id,
      tool: tool('create', 'Creates entities and uploads them.'),
      decidedBy: 'user:ui',
    });
    expect(store.lookup(id, tool('create', 'Creates entities and uploads them.')).status).toBe('allowed');
    expect(store.list()).toHaveLength(1);
  });

  it('forgets one tool or a whole server, and merges what another process wrote', async () => {
    const a = await ApprovalStore.open(home);
    const b = await ApprovalStore.open(home);
    await a.remember({ identity: id, tool: tool('create'), decidedBy: 'user:ui' });
    await b.remember({ identity: id, tool: tool('delete'), decidedBy: 'user:cli' }); // b re-reads, keeps a's entry
    expect((await ApprovalStore.open(home)).list()).toHaveLength(2);
    expect(await b.forget('mem', 'create')).toBe(1);
    expect(b.lookup(id, tool('create'))).toEqual({ status: 'none' });
    expect(await b.forget('mem')).toBe(1);
    expect(JSON.parse(await readFile(approvalsPath(home), 'utf8'))).toEqual({ version: 1, approvals: [] });
  });

  it("sees another instance's revoke at its next lookup, and moves its revision (no write of its own)", async () => {
    const app = await ApprovalStore.open(home);
    const serve = await ApprovalStore.open(home);
    await serve.remember({ identity: id, tool: tool('create'), decidedBy: 'user:ui' });
    const before = serve.revision();
    expect(serve.revision()).toBe(before); // unchanged file: same revision, so the call path's caches stay
    expect(app.lookup(id, tool('create')).status).toBe('allowed');
    expect(await app.forget('mem', 'create')).toBe(1);
    expect(serve.revision()).not.toBe(before);
    expect(serve.lookup(id, tool('create'))).toEqual({ status: 'none' });
  });

  it('remembers nothing while the file is invalid: every tool asks again', async () => {
    const serve = await ApprovalStore.open(home);
    await serve.remember({ identity: id, tool: tool('create'), decidedBy: 'user:ui' });
    await writeFile(approvalsPath(home), '{"version":1,"approvals":[{"server":"x"}]}');
    expect(serve.lookup(id, tool('create'))).toEqual({ status: 'none' });
  });

  it('refuses an invalid file with a clear error and a hint', async () => {
    await writeFile(approvalsPath(home), '{"version":1,"approvals":[{"server":"x"}]}');
    const err = await ApprovalStore.open(home).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MooringError);
    expect((err as MooringError).code).toBe('config_invalid');
    expect((err as MooringError).message).toContain('approvals.json');
    expect((err as MooringError).hint).toMatch(/delete it/);
    await writeFile(approvalsPath(home), 'not json');
    await expect(ApprovalStore.open(home)).rejects.toMatchObject({ code: 'config_invalid' });
  });
});
