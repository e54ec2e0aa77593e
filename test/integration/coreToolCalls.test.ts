// The whole call path through MooringCore with real servers: catalog → safety (broker, audit,
// always-allow, quarantine) → session → normalised result.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '@shared/approval';
import { resultText } from '@shared/toolResult';
import { MooringCore } from '../../src-main/core/mooringCore';
import { MemorySecretStore } from '../../src-main/core/secrets/secretStore';
import { foldCallEvent, type ToolCallEvent } from '@shared/toolCall';
import { EVERYTHING, FILESYSTEM, RUN_TS, fixturePath, tempDir, waitFor } from '../helpers/servers';

const cores: MooringCore[] = [];
afterEach(async () => void (await Promise.all(cores.splice(0).map((c) => c.close()))));

async function coreWith(servers: unknown[]) {
  const home = tempDir('mooring-core-');
  writeFileSync(join(home, 'mcp_servers.json'), JSON.stringify({ servers }));
  const core = await MooringCore.open({
    home,
    secretStore: new MemorySecretStore(),
    env: { ...process.env, MOORING_NO_SHELL_PATH: '1' },
  });
  cores.push(core);
  await core.start();
  return { core, home };
}

/** Answers the next approval request with `answer(req)`. */
function answerNext(
  core: MooringCore,
  answer: (r: ApprovalRequest) => Parameters<MooringCore['approvals']['answer']>[1],
) {
  return new Promise<ApprovalRequest>((resolve) =>
    core.approvals.once('requested', (r) => {
      core.approvals.answer(r.id, answer(r));
      resolve(r);
    }),
  );
}

describe('tool calls through the core', () => {
  it('asks before a destructive call; edited arguments reach the server; deny leaves the disk untouched', async () => {
    const root = tempDir('mooring-core-fs-');
    const { core, home } = await coreWith([{ name: 'files', command: 'node', args: [FILESYSTEM, root] }]);
    const events: ToolCallEvent[] = [];
    core.tools.on('toolCall', (e) => events.push(e));

    const asked = answerNext(core, (r) => ({
      outcome: 'approve',
      decidedBy: 'user:test',
      arguments: { ...r.arguments, content: 'edited by the user' },
    }));
    const target = join(root, 'note.txt');
    const out = await core.tools.call(
      'mcp__files__write_file',
      { path: target, content: 'from the model' },
      { client: 'test' },
    );
    const req = await asked;
    expect(req.reason).toMatch(/destructive|change/);
    expect(readFileSync(target, 'utf8')).toBe('edited by the user');
    expect(out.decision).toBe('approve');
    expect(events.filter((e) => e.id === out.id).map((e) => e.phase)).toEqual([
      'requested',
      'awaiting-approval',
      'running',
      'done',
    ]);

    const denied = join(root, 'denied.txt');
    answerNext(core, () => ({ outcome: 'deny', decidedBy: 'user:test' }));
    await expect(
      core.tools.call('mcp__files__write_file', { path: denied, content: 'x' }, { client: 'test' }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(existsSync(denied)).toBe(false);

    // Read-only: no question asked.
    const list = await core.tools.call('mcp__files__list_directory', { path: root });
    expect(resultText(list.result)).toContain('note.txt');
    expect(list.decision).toBe('auto');

    const audit = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audit.map((a) => a.decision)).toEqual(['approve', 'deny', 'auto']);
    expect(audit[0]).toMatchObject({
      server: 'files',
      tool: 'write_file',
      decidedBy: 'user:test',
      client: 'test',
      argsEdited: true,
    });
    expect(JSON.stringify(audit)).not.toContain('edited by the user');
  });

  it('"always allow" persists; it runs later calls without asking', async () => {
    const root = tempDir('mooring-core-fs-');
    const { core } = await coreWith([{ name: 'files', command: 'node', args: [FILESYSTEM, root] }]);
    answerNext(core, () => ({ outcome: 'always', decidedBy: 'user:test' }));
    await core.tools.call('mcp__files__create_directory', { path: join(root, 'a') });
    let asked = false;
    core.approvals.once('requested', () => (asked = true));
    const second = await core.tools.call('mcp__files__create_directory', { path: join(root, 'b') });
    expect(asked).toBe(false);
    expect(second.decision).toBe('auto');
    expect(existsSync(join(root, 'b'))).toBe(true);
  });

  it('a tool arriving through list_changed that is not read-only starts disabled until enabled', async () => {
    const { core } = await coreWith([
      { name: 'fx', command: 'node', args: [RUN_TS, fixturePath('engineServer.ts')] },
    ]);
    await core.tools.call('mcp__fx__add_tool', { name: 'late_arrival' }, { preApproved: true });
    await waitFor(() => core.tools.catalog().get('mcp__fx__late_arrival'), 'the new tool in the catalog');
    expect(core.tools.catalog().get('mcp__fx__late_arrival')!.enabled).toBe(false);
    await expect(core.tools.call('mcp__fx__late_arrival', {}, { preApproved: true })).rejects.toMatchObject({
      code: 'refused',
    });
    expect(
      core.servers.logs('fx').some((l) => /late_arrival" is disabled until you enable it/.test(l.text)),
    ).toBe(true);
    await core.servers.setToolEnabled('fx', 'late_arrival', true);
    await waitFor(
      () => core.servers.statuses().find((s) => s.name === 'fx' && s.state === 'ready'),
      'fx ready',
    );
    // The toggle leaves the server's config as it was (the tool was never in excludeTools), so the
    // session stays warm and the runtime tool is still there.
    const out = await core.tools.call('mcp__fx__late_arrival', {}, { preApproved: true });
    expect(resultText(out.result)).toBe('I am late_arrival');
  });

  it("the stream's snapshot is each call's events folded, in flight and ended, for a call with many progress events", async () => {
    const { core } = await coreWith([{ name: 'every', command: 'node', args: [EVERYTHING, 'stdio'] }]);
    const events: ToolCallEvent[] = [];
    core.tools.on('toolCall', (e) => events.push(e));
    const fold = (id: string) => events.filter((e) => e.id === id).reduce((s, e) => foldCallEvent(s, e));
    const args = { duration: 0.24, steps: 12 };
    let inFlight: ToolCallEvent | undefined;
    let foldedThen: ToolCallEvent | undefined;
    const out = await core.tools.call('mcp__every__trigger-long-running-operation', args, {
      client: 'test',
      onPhase: (e) => {
        if (e.progress?.progress !== 10) return;
        inFlight = core.tools.snapshot().find((s) => s.id === e.id);
        foldedThen = fold(e.id);
      },
    });
    // Ten progress events after `requested` and `running`: more than the service keeps unfolded.
    expect(inFlight).toEqual(foldedThen);
    expect(inFlight).toMatchObject({
      phase: 'running',
      arguments: args,
      progress: { progress: 10, total: 12 },
    });
    const ended = core.tools.snapshot().find((s) => s.id === out.id);
    expect(ended).toEqual(fold(out.id));
    expect(ended).toMatchObject({ phase: 'done', arguments: args });
    // At least the ten seen in flight (the last notification may be handled after the result).
    expect(events.filter((e) => e.id === out.id && e.progress).length).toBeGreaterThanOrEqual(10);
  });
});
