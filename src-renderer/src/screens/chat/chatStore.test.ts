import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '@shared/chat';
import { useChat, withDeltas } from './chatStore';

const note = (id: string): ChatMessage => ({ id, at: 1, role: 'note', level: 'info', text: id });

describe('a conversation as a snapshot plus the messages announced since', () => {
  beforeEach(() => useChat.setState({ deltas: {}, drafts: {} }));

  it('appends the deltas that continue the snapshot, ignores what it holds, and reports a gap', () => {
    const snapshot = [note('m0'), note('m1')];
    const apply = (index: number, id: string) =>
      useChat.getState().apply({ type: 'message-complete', conversationId: 'c', index, message: note(id) });
    apply(1, 'm1'); // raced the snapshot's read: already in it
    apply(3, 'm3'); // arrived before m2
    apply(2, 'm2');
    apply(2, 'm2'); // a replay
    const { messages, gap } = withDeltas(snapshot, useChat.getState().deltas['c']);
    expect(messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(gap).toBe(false);

    apply(6, 'm6'); // m4 and m5 were missed (the stream was down)
    const missed = withDeltas(snapshot, useChat.getState().deltas['c']);
    expect(missed.gap).toBe(true);
    expect(missed.messages.map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);

    // A fresh snapshot of five messages drops the deltas it holds.
    useChat.getState().covered('c', 5);
    expect(useChat.getState().deltas['c']!.map((d) => d.index)).toEqual([6]);
  });

  it("keeps the newer of a turn event and a load's answer, whichever arrives first", () => {
    useChat.setState({ running: {}, turnSeq: {} });
    const s = useChat.getState();
    s.setRunning('c', true, 4, 'answer'); // chat.send answered: the turn started at 4
    s.setRunning('c', false, 5); // the turn ended
    s.setRunning('c', true, 4, 'answer'); // a load read while it ran, answered late
    expect(useChat.getState().running['c']).toBe(false);
    s.setRunning('c', true, 6); // the next turn
    s.setRunning('c', true, 6, 'answer'); // a load read after it started
    expect(useChat.getState().running['c']).toBe(true);
  });

  it('drops the streamed draft once its message is complete', () => {
    const s = useChat.getState();
    s.apply({ type: 'text-delta', conversationId: 'c', messageId: 'a1', text: 'Hel' });
    s.apply({ type: 'text-delta', conversationId: 'c', messageId: 'a1', text: 'lo' });
    s.flushText();
    expect(useChat.getState().drafts['c']).toEqual({ messageId: 'a1', text: 'Hello' });
    s.apply({
      type: 'message-complete',
      conversationId: 'c',
      index: 0,
      message: { id: 'a1', at: 1, role: 'assistant', text: 'Hello', toolCalls: [] },
    });
    expect(useChat.getState().drafts['c']).toBeUndefined();
  });
});

describe('streamed text, taken in once a frame', () => {
  beforeEach(() => useChat.setState({ deltas: {}, drafts: {}, running: {}, turnSeq: {} }));
  const delta = (text: string, messageId = 'a1', conversationId = 'c') =>
    useChat.getState().apply({ type: 'text-delta', conversationId, messageId, text });

  it('makes one change of the store for all the deltas of a frame, in order, per conversation', async () => {
    let changes = 0;
    const stop = useChat.subscribe(() => changes++);
    for (const piece of ['Wel', 'come', ' to', ' it']) delta(piece);
    delta('Other', 'b1', 'd');
    expect(useChat.getState().drafts['c']).toBeUndefined();
    // The frame comes (a timer where there is no DOM).
    await new Promise((r) => setTimeout(r, 40));
    stop();
    expect(changes).toBe(1);
    expect(useChat.getState().drafts['c']).toEqual({ messageId: 'a1', text: 'Welcome to it' });
    expect(useChat.getState().drafts['d']).toEqual({ messageId: 'b1', text: 'Other' });
  });

  it('takes in the waiting deltas before any other change, so events keep their order', () => {
    useChat.getState().setRunning('c', true, 1);
    delta('Half an ans');
    delta('wer');
    // The turn ends before the frame: its text was taken in first, then the draft was dropped with it.
    useChat.getState().setRunning('c', false, 2);
    expect(useChat.getState().drafts['c']).toBeUndefined();
    // A new message's deltas start a new draft, after the text of the one before.
    delta('First', 'a1');
    delta('Second', 'a2');
    useChat.getState().flushText();
    expect(useChat.getState().drafts['c']).toEqual({ messageId: 'a2', text: 'Second' });
  });
});

describe('calls the model is still writing (MCP App views get their partial input)', () => {
  beforeEach(() => useChat.setState({ deltas: {}, drafts: {}, partials: {}, running: {}, turnSeq: {} }));
  const partial = (args: Record<string, unknown>) =>
    useChat.getState().apply({
      type: 'tool-input-partial',
      conversationId: 'c',
      messageId: 'a1',
      callId: 'k1',
      name: 'show',
      target: { server: 's', tool: 'show' },
      arguments: args,
    });
  const assistant = (cancelled?: boolean): ChatMessage => ({
    id: 'a1',
    at: 1,
    role: 'assistant',
    text: 'x',
    toolCalls: cancelled ? [] : [{ id: 'k1', name: 'show', arguments: { a: 'whole' } }],
    ...(cancelled ? { cancelled: true } : {}),
  });

  it('keeps the latest arguments per call, and drops them once the saved message carries the call', () => {
    useChat.getState().setRunning('c', true, 1);
    partial({ a: 'w' });
    partial({ a: 'wh' });
    expect(useChat.getState().partials['c']!.calls).toEqual([
      { id: 'k1', name: 'show', target: { server: 's', tool: 'show' }, arguments: { a: 'wh' } },
    ]);
    useChat
      .getState()
      .apply({ type: 'message-complete', conversationId: 'c', index: 1, message: assistant() });
    expect(useChat.getState().partials['c']).toBeUndefined();
  });

  it('drops them too when the conversation keeps no deltas yet (its first turn, before it was loaded)', () => {
    partial({ a: 'w' });
    useChat.getState().saved('c', assistant());
    expect(useChat.getState().partials['c']).toBeUndefined();
  });

  it('marks them as not run when the turn stops first, and forgets them when the next turn starts', () => {
    useChat.getState().setRunning('c', true, 1);
    partial({ a: 'w' });
    // Stop: the text so far is saved without the call.
    useChat
      .getState()
      .apply({ type: 'message-complete', conversationId: 'c', index: 1, message: assistant(true) });
    useChat.getState().setRunning('c', false, 2);
    expect(useChat.getState().partials['c']!.stopped).toMatch(/turn ended/);
    useChat.getState().setRunning('c', true, 3);
    expect(useChat.getState().partials['c']).toBeUndefined();
  });
});
