// The chat's messages and events (issue 6): what the conversation store keeps, what the tool loop
// streams, and what the UI and the CLI (`mooring chat --json`) render. Plain data, no Node.
import type { ErrorData } from './errors';
import type { Progress } from './toolCall';

export interface TextPart {
  type: 'text';
  text: string;
}
/** An image as base64 data; never shown to a model as text (non-vision models get a placeholder). */
export interface ImagePart {
  type: 'image';
  mimeType: string;
  data: string;
}
export type ContentPart = TextPart | ImagePart;

/** A tool call as the model asked for it; `arguments` is already parsed from the wire's JSON. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ToolOutcomeStatus = 'done' | 'failed' | 'refused';

interface MessageBase {
  /** Unique within the conversation. */
  id: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface UserChatMessage extends MessageBase {
  role: 'user';
  content: ContentPart[];
  /** 'protocol': written by the loop (e.g. the text protocol's corrective message), not by the person. */
  origin?: 'person' | 'protocol';
}

export interface AssistantChatMessage extends MessageBase {
  role: 'assistant';
  text: string;
  toolCalls: ToolCallRequest[];
  model?: string;
  stopReason?: string;
  usage?: TokenUsage;
  /** True when the turn was cancelled while this message streamed: the text is partial. */
  cancelled?: boolean;
}

export interface ToolChatMessage extends MessageBase {
  role: 'tool';
  toolCallId: string;
  name: string;
  status: ToolOutcomeStatus;
  text: string;
  images?: { mimeType: string; data: string }[];
  structured?: unknown;
}

/** Visible to the person, never sent to the model (iteration cap, protocol give-up, cancel). */
export interface NoteChatMessage extends MessageBase {
  role: 'note';
  level: 'info' | 'warning';
  text: string;
}

export type ChatMessage = UserChatMessage | AssistantChatMessage | ToolChatMessage | NoteChatMessage;

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** The tool-call lifecycle (ARCHITECTURE.md, "The path of one tool call"). */
export type ToolCallState = 'requested' | 'awaiting-approval' | 'running' | 'done' | 'failed' | 'refused';

export type ChatEvent =
  | { type: 'text-delta'; conversationId: string; messageId: string; text: string }
  | {
      type: 'tool-call';
      conversationId: string;
      call: ToolCallRequest;
      state: ToolCallState;
      progress?: Progress;
      /** On done | failed | refused: the outcome's text (what the model will see). */
      text?: string;
      imageCount?: number;
    }
  | { type: 'note'; conversationId: string; level: 'info' | 'warning'; text: string }
  | { type: 'message-complete'; conversationId: string; message: ChatMessage }
  | { type: 'error'; conversationId: string; error: ErrorData };

/** One conversation in a list (title search, sidebar). */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The project folder offered as the MCP root (issue 6, Roots); null when none. */
  workspace: string | null;
}

/** The placeholder a non-vision model gets instead of an image: `[image: image/png, 5 KB]`. */
export function imagePlaceholder(mimeType: string, base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  const size = bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
  return `[image: ${mimeType}, ${size}]`;
}
