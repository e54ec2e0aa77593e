// One chat turn, end to end (ARCHITECTURE.md, `agent/`): load or create the conversation, append the
// person's message, run the tool loop with every step appended as it completes, and return the final
// answer. This is what `mooring chat`, the UI and `start_session` call. Each appended message is
// announced (`message-complete`) after it is on disk, with its position in the conversation.
import type { AppOrigin } from '@shared/appViews';
import { randomUUID } from 'node:crypto';
import type {
  AssistantChatMessage,
  ChatEvent,
  ChatMessage,
  ContentPart,
  UserChatMessage,
} from '@shared/chat';
import type { ToolCallEvent } from '@shared/toolCall';
import { MooringError, toErrorData } from '../errors';
import { titleFromText, type ConversationStore } from './conversationStore';
import type { RequestLimits } from './messagesForModel';
import type { ChatProvider, ModelCapabilities } from './providers/types';
import { runToolLoop } from './toolLoop';
import type { AgentToolRuntime } from './toolRuntime';

export interface ChatTurnOptions {
  store: ConversationStore;
  provider: ChatProvider;
  model: string;
  runtime: AgentToolRuntime;
  /** Omitted: a new conversation is created, titled from the message (conversationTitles.ts may rename it). */
  conversationId?: string;
  message: string | ContentPart[];
  signal?: AbortSignal;
  onEvent?: (event: ChatEvent) => void;
  /** Each lifecycle event of each tool call of the turn. */
  onPhase?: (e: ToolCallEvent) => void;
  maxToolIterations?: number;
  capabilities?: ModelCapabilities;
  /** What one request may hold (large tool results, images). */
  limits?: RequestLimits;
  system?: string;
  /** For a new conversation: its project folder (the MCP root, later). */
  workspace?: string | null;
  /** Who wrote the turn's message (default the person; 'task': a delivered task, taskDelivery.ts). */
  origin?: 'person' | 'task';
  /** The message's id (default a fresh one): a delivered task's is derived from the task. */
  messageId?: string;
  /** The message comes from an MCP App view (`ui/message`), not from the person. */
  app?: AppOrigin;
}

export interface ChatTurnResult {
  conversationId: string;
  /** The final assistant message of the turn. */
  message: AssistantChatMessage;
  /** Every message this turn appended, the person's first. */
  steps: ChatMessage[];
}

export async function runChatTurn(opts: ChatTurnOptions): Promise<ChatTurnResult> {
  const content: ContentPart[] =
    typeof opts.message === 'string' ? [{ type: 'text', text: opts.message }] : opts.message;
  if (!content.some((p) => (p.type === 'text' ? p.text.trim() : true))) {
    throw new MooringError('usage', 'The message is empty', 'Type a message to send');
  }
  const { store } = opts;
  let conversationId = opts.conversationId;
  let history: ChatMessage[] = [];
  if (conversationId) {
    history = (await store.load(conversationId)).messages;
  } else {
    const firstText = content.find((p) => p.type === 'text');
    const created = await store.create({
      title: titleFromText(firstText?.type === 'text' ? firstText.text : 'Image'),
      titleFrom: 'first-words',
      workspace: opts.workspace ?? null,
    });
    conversationId = created.id;
  }
  const cid = conversationId;
  // The conversation's next position: every append goes through here, one at a time.
  let index = history.length;
  const append = async (message: ChatMessage) => {
    await store.append(cid, message);
    opts.onEvent?.({ type: 'message-complete', conversationId: cid, index: index++, message });
  };
  const user: UserChatMessage = {
    id: opts.messageId ?? randomUUID(),
    at: Date.now(),
    role: 'user',
    content,
    ...(opts.app
      ? { origin: 'app' as const, app: opts.app }
      : { origin: opts.origin ?? ('person' as const) }),
  };
  await append(user);

  try {
    const result = await runToolLoop({
      conversationId: cid,
      provider: opts.provider,
      model: opts.model,
      runtime: opts.runtime,
      history: [...history, user],
      signal: opts.signal,
      onEvent: opts.onEvent,
      ...(opts.onPhase ? { onPhase: opts.onPhase } : {}),
      onStep: append,
      maxToolIterations: opts.maxToolIterations,
      capabilities: opts.capabilities,
      ...(opts.limits ? { limits: opts.limits } : {}),
      system: opts.system,
    });
    return { conversationId: cid, message: result.final, steps: [user, ...result.steps] };
  } catch (err) {
    const error =
      err instanceof MooringError
        ? err
        : new MooringError('internal', toErrorData(err).message, undefined, { cause: err });
    if (error.code !== 'cancelled') {
      // Kept in the conversation too, so the failure is still visible after a reload.
      const text = error.hint ? `${error.message}. ${error.hint}.` : error.message;
      await append({ id: randomUUID(), at: Date.now(), role: 'note', level: 'warning', text }).catch(
        () => undefined,
      );
      opts.onEvent?.({ type: 'error', conversationId: cid, error: error.toData() });
    }
    throw error;
  }
}
