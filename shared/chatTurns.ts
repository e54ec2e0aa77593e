// A conversation as a person reads it: each of their messages, then one answer per turn holding the
// model's text and its tool steps in the order they happened (ARCHITECTURE.md, `agent/`). The store keeps
// one record per step (the model's wire needs them apart, and each is fsync'd as it completes); this
// groups them for display. Pure, so the renderer and any exporter read the same shape.
import type {
  AssistantChatMessage,
  ChatMessage,
  NoteChatMessage,
  ToolCallRequest,
  ToolChatMessage,
  UserChatMessage,
} from './chat';

export type TurnStep =
  | { kind: 'text'; message: AssistantChatMessage }
  /** `step` is absent while the call runs (or when a crash left it unanswered). */
  | { kind: 'tool'; call: ToolCallRequest; step?: ToolChatMessage }
  | { kind: 'note'; message: NoteChatMessage };

export interface AssistantTurn {
  kind: 'turn';
  /** The id of the turn's first message: stable while the turn grows. */
  id: string;
  steps: TurnStep[];
  /** The model of the turn's last answer. */
  model?: string;
}

export type ConversationItem = { kind: 'user'; message: UserChatMessage } | AssistantTurn;

/**
 * Everything after a person's message up to their next one is one turn. The text protocol's corrective
 * messages are the loop's, not the person's: they stay inside the turn and are not shown.
 */
export function groupTurns(messages: readonly ChatMessage[]): ConversationItem[] {
  const items: ConversationItem[] = [];
  let turn: AssistantTurn | undefined;
  const tools = new Map<string, Extract<TurnStep, { kind: 'tool' }>>();
  const current = (m: ChatMessage): AssistantTurn => {
    if (!turn) {
      turn = { kind: 'turn', id: m.id, steps: [] };
      items.push(turn);
      tools.clear();
    }
    return turn;
  };
  for (const m of messages) {
    switch (m.role) {
      case 'user':
        if (m.origin === 'protocol') break;
        items.push({ kind: 'user', message: m });
        turn = undefined;
        break;
      case 'assistant': {
        const t = current(m);
        if (m.text || m.cancelled || !m.toolCalls.length) t.steps.push({ kind: 'text', message: m });
        for (const call of m.toolCalls) {
          const step: Extract<TurnStep, { kind: 'tool' }> = { kind: 'tool', call };
          tools.set(call.id, step);
          t.steps.push(step);
        }
        if (m.model) t.model = m.model;
        break;
      }
      case 'tool': {
        const t = current(m);
        const known = tools.get(m.toolCallId);
        if (known) known.step = m;
        else t.steps.push({ kind: 'tool', call: { id: m.toolCallId, name: m.name, arguments: {} }, step: m });
        break;
      }
      case 'note':
        current(m).steps.push({ kind: 'note', message: m });
        break;
    }
  }
  return items;
}
