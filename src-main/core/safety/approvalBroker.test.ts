import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, ApprovalRequestInput } from '@shared/approval';
import { ApprovalBroker, type ApprovalResolved } from './approvalBroker';
import { MooringError } from '../errors';

const input = (tool = 'delete_file'): ApprovalRequestInput => ({
  server: 'fs',
  tool,
  friendlyName: 'Delete file',
  annotations: { destructiveHint: true },
  arguments: { path: '/tmp/a' },
  fingerprint: `sha256:${'c'.repeat(64)}`,
  reason: 'the tool may be destructive',
});

describe('ApprovalBroker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists pending requests and resolves them by id with edited arguments; emits requested and resolved', async () => {
    const broker = new ApprovalBroker();
    const requested: ApprovalRequest[] = [];
    const resolved: ApprovalResolved[] = [];
    broker.on('requested', (r) => requested.push(r));
    broker.on('resolved', (r) => resolved.push(r));
    const p1 = broker.request(input('a'));
    const p2 = broker.request(input('b'));
    expect(broker.pending().map((r) => r.tool)).toEqual(['a', 'b']);
    expect(requested).toHaveLength(2);
    const [r1, r2] = broker.pending();
    expect(r1!.id).not.toBe(r2!.id);
    expect(r1!.expiresAt).toBeGreaterThan(r1!.requestedAt);

    broker.answer(r2!.id, { outcome: 'approve', arguments: { path: '/tmp/b' }, decidedBy: 'user:ui' });
    await expect(p2).resolves.toEqual({
      outcome: 'approve',
      arguments: { path: '/tmp/b' },
      decidedBy: 'user:ui',
    });
    broker.answer(r1!.id, { outcome: 'deny', decidedBy: 'user:cli' });
    await expect(p1).resolves.toMatchObject({ outcome: 'deny' });
    expect(broker.pending()).toEqual([]);
    expect(resolved.map((r) => [r.request.tool, r.decision?.outcome])).toEqual([
      ['b', 'approve'],
      ['a', 'deny'],
    ]);
    // Answering twice is a clear error, not a silent no-op.
    expect(() => broker.answer(r1!.id, { outcome: 'approve', decidedBy: 'user:ui' })).toThrow(
      /no pending approval/,
    );
  });

  it('rejects malformed answers and keeps the request pending', async () => {
    const broker = new ApprovalBroker();
    const p = broker.request(input());
    const id = broker.pending()[0]!.id;
    for (const bad of [
      { outcome: 'maybe', decidedBy: 'x' },
      { outcome: 'approve' },
      { outcome: 'approve', decidedBy: 'x', arguments: [1] },
    ]) {
      let err: unknown;
      try {
        broker.answer(id, bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MooringError);
      expect((err as MooringError).code).toBe('usage');
    }
    expect(broker.pending()).toHaveLength(1);
    broker.answer(id, { outcome: 'always', decidedBy: 'user:ui' });
    await expect(p).resolves.toMatchObject({ outcome: 'always' });
  });

  it('refuses with a clear error on timeout', async () => {
    vi.useFakeTimers();
    const broker = new ApprovalBroker({ timeoutMs: 60_000 });
    const resolved: ApprovalResolved[] = [];
    broker.on('resolved', (r) => resolved.push(r));
    const p = broker.request(input());
    const settled = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(broker.pending()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await settled) as MooringError;
    expect(err).toBeInstanceOf(MooringError);
    expect(err.code).toBe('refused');
    expect(err.message).toMatch(/No answer .* within 60 s/);
    expect(err.hint).toMatch(/--yes/);
    expect(broker.pending()).toEqual([]);
    expect(resolved[0]?.error?.code).toBe('refused');
  });

  it('cancels on abort, before or while pending, and on dispose', async () => {
    const broker = new ApprovalBroker();
    const ac = new AbortController();
    const p = broker.request(input(), { signal: ac.signal });
    ac.abort(new Error('user closed the chat'));
    await expect(p).rejects.toMatchObject({
      code: 'cancelled',
      message: expect.stringContaining('user closed the chat'),
    });
    expect(broker.pending()).toEqual([]);
    await expect(broker.request(input(), { signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'cancelled',
    });
    const q = broker.request(input());
    broker.dispose();
    await expect(q).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('ApprovalBroker.cancel', () => {
  it('ends one pending request as cancelled and leaves the others', async () => {
    const b = new ApprovalBroker();
    const input = {
      server: 's',
      tool: 't',
      friendlyName: 'T',
      annotations: {},
      arguments: {},
      fingerprint: 'sha256:x',
      reason: 'r',
    };
    const one = b.request(input);
    const two = b.request(input);
    const [first] = b.pending();
    expect(b.cancel(first!.id, 'the app closed')).toBe(true);
    await expect(one).rejects.toMatchObject({
      code: 'cancelled',
      message: expect.stringContaining('the app closed'),
    });
    expect(b.pending()).toHaveLength(1);
    expect(b.cancel(first!.id)).toBe(false);
    b.answer(b.pending()[0]!.id, { outcome: 'deny', decidedBy: 'test' });
    await expect(two).resolves.toMatchObject({ outcome: 'deny' });
  });
});
