import { beforeEach, describe, expect, it } from 'vitest';
import type { WireToolCallEvent } from '@shared/wire';
import { MAX_CALLS, useCalls } from './callStore';

const ev = (
  id: string,
  seq: number,
  phase: WireToolCallEvent['phase'],
  extra: Partial<WireToolCallEvent> = {},
): WireToolCallEvent => ({
  id,
  seq,
  server: 'fs',
  tool: 'write_file',
  modelName: 'mcp__fs__write_file',
  friendlyName: 'Write File (fs)',
  phase,
  at: 1,
  ...extra,
});

describe('the calls store', () => {
  beforeEach(() => useCalls.getState().clear());

  it("folds one call's lifecycle into its state, keeping what earlier phases said", () => {
    const s = useCalls.getState();
    s.apply(ev('a', 1, 'requested', { arguments: { path: '/x' } }));
    s.apply(ev('a', 2, 'awaiting-approval', { approvalId: 'r1' }));
    s.apply(ev('a', 3, 'running', { editedArguments: { path: '/y' } }));
    s.apply(ev('a', 4, 'running', { progress: { progress: 1, total: 2 } }));
    s.apply(ev('a', 5, 'done'));
    const a = useCalls.getState().calls['a']!;
    expect(a).toMatchObject({
      phase: 'done',
      seq: 5,
      arguments: { path: '/x' },
      editedArguments: { path: '/y' },
    });
  });

  it('ignores an event no newer than the state it holds: a replayed snapshot never goes back', () => {
    const s = useCalls.getState();
    s.apply(ev('a', 7, 'done'));
    s.apply(ev('a', 6, 'running'));
    s.apply(ev('a', 7, 'running'));
    expect(useCalls.getState().calls['a']!.phase).toBe('done');
  });

  it('keys a conversation call by conversation and id, newest first, at most MAX_CALLS', () => {
    const s = useCalls.getState();
    s.apply(ev('call_0', 1, 'requested', { conversationId: 'c1' }));
    s.apply(ev('call_0', 2, 'requested', { conversationId: 'c2' }));
    expect(useCalls.getState().order).toEqual(['c2/call_0', 'c1/call_0']);
    for (let i = 0; i < MAX_CALLS + 5; i++) s.apply(ev(`x${i}`, 10 + i, 'requested'));
    expect(useCalls.getState().order).toHaveLength(MAX_CALLS);
    expect(Object.keys(useCalls.getState().calls)).toHaveLength(MAX_CALLS);
    expect(useCalls.getState().order[0]).toBe(`x${MAX_CALLS + 4}`);
  });
});
