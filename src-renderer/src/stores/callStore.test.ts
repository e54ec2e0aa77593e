import { beforeEach, describe, expect, it } from 'vitest';
import type { WireToolCallEvent } from '@shared/wire';
import { MAX_CARDS, phaseOf, useCalls } from './callStore';

const ev = (
  id: string,
  phase: WireToolCallEvent['phase'],
  extra: Partial<WireToolCallEvent> = {},
): WireToolCallEvent => ({
  id,
  server: 'fs',
  tool: 'write_file',
  modelName: 'mcp__fs__write_file',
  friendlyName: 'Write File (fs)',
  phase,
  at: 1,
  ...extra,
});

describe('the call cards store', () => {
  beforeEach(() => useCalls.getState().clear());

  it('walks one card through its lifecycle, keeping the arguments it was started with', () => {
    const s = useCalls.getState();
    s.started('a', {
      server: 'fs',
      tool: 'write_file',
      friendlyName: 'Write File (fs)',
      arguments: { path: '/x' },
    });
    for (const p of ['requested', 'awaiting-approval', 'running', 'done'] as const)
      useCalls.getState().apply(ev('a', p));
    const [card] = useCalls.getState().cards;
    expect(card!.events.map((e) => e.phase)).toEqual(['requested', 'awaiting-approval', 'running', 'done']);
    expect(phaseOf(card!)).toBe('done');
    expect(card!.arguments).toEqual({ path: '/x' });
  });

  it('creates a card for a call it did not start (another window, the chat) and puts the newest first', () => {
    useCalls.getState().apply(ev('a', 'requested'));
    useCalls.getState().apply(ev('b', 'refused', { error: { code: 'refused', message: 'no' } }));
    expect(useCalls.getState().cards.map((c) => c.id)).toEqual(['b', 'a']);
    expect(phaseOf(useCalls.getState().cards[0]!)).toBe('refused');
  });

  it('keeps at most MAX_CARDS cards', () => {
    for (let i = 0; i < MAX_CARDS + 5; i++) useCalls.getState().apply(ev(`c${i}`, 'requested'));
    expect(useCalls.getState().cards).toHaveLength(MAX_CARDS);
    expect(useCalls.getState().cards[0]!.id).toBe(`c${MAX_CARDS + 4}`);
  });
});
