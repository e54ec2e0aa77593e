import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat';
import { groupTurns } from './chatTurns';

const user = (id: string, origin: 'person' | 'protocol' = 'person'): ChatMessage => ({
  id,
  at: 1,
  role: 'user',
  origin,
  content: [{ type: 'text', text: id }],
});

describe('groupTurns', () => {
  it("makes one answer of a turn's text, tool steps and notes, in order, under the person's message", () => {
    const messages: ChatMessage[] = [
      user('u1'),
      {
        id: 'a1',
        at: 2,
        role: 'assistant',
        text: 'Let me look.',
        model: 'm1',
        toolCalls: [
          { id: 'c1', name: 'list', arguments: {} },
          { id: 'c2', name: 'read', arguments: {} },
        ],
      },
      { id: 't2', at: 3, role: 'tool', toolCallId: 'c2', name: 'read', status: 'done', text: 'b' },
      { id: 't1', at: 4, role: 'tool', toolCallId: 'c1', name: 'list', status: 'failed', text: 'a' },
      user('p1', 'protocol'),
      {
        id: 'a2',
        at: 5,
        role: 'assistant',
        text: '',
        model: 'm2',
        toolCalls: [{ id: 'c3', name: 'x', arguments: {} }],
      },
      { id: 'n1', at: 6, role: 'note', level: 'warning', text: 'Stopped.' },
      user('u2'),
      { id: 'a3', at: 7, role: 'assistant', text: 'Hi.', toolCalls: [] },
    ];
    const items = groupTurns(messages);
    expect(items.map((i) => (i.kind === 'user' ? i.message.id : i.id))).toEqual(['u1', 'a1', 'u2', 'a3']);
    const first = items[1]!;
    if (first.kind !== 'turn') throw new Error('a turn');
    expect(
      first.steps.map((s) =>
        s.kind === 'tool' ? `${s.call.id}:${s.step?.status ?? 'running'}` : `${s.kind}:${s.message.id}`,
      ),
    ).toEqual(['text:a1', 'c1:failed', 'c2:done', 'c3:running', 'note:n1']);
    expect(first.model).toBe('m2');
  });

  it('keeps a result whose call it never saw, and a turn that starts with a note', () => {
    const items = groupTurns([
      user('u1'),
      { id: 'n', at: 2, role: 'note', level: 'warning', text: 'The model is down.' },
      { id: 't', at: 3, role: 'tool', toolCallId: 'lost', name: 'x', status: 'failed', text: 'not run' },
    ]);
    expect(items).toHaveLength(2);
    expect(items[1]).toMatchObject({
      kind: 'turn',
      steps: [{ kind: 'note' }, { kind: 'tool', call: { id: 'lost', name: 'x' }, step: { id: 't' } }],
    });
  });
});
