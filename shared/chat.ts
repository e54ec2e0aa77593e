// The chat's messages and events (ARCHITECTURE.md, `agent/`): what the conversation store keeps, what a
// turn streams, and what the UI and the CLI (`mooring chat --json`) render. A tool call's lifecycle is
// not here: it travels as the one tool-call event (shared/toolCall.ts). Plain data, no Node.
import type { ProgramStep } from './codeMode';
import type { ReadOrigin } from './dataFlow';
import type { AppOrigin } from './appViews';
import type { ErrorData } from './errors';

export interface TextPart {
  type: 'text';
  text: string;
  /** The part is (part of) a server's resource attached to the person's message, not typed text. */
  resource?: AttachedResource;
}
/** An image as base64 data; never shown to a model as text (non-vision models get a placeholder). */
export interface ImagePart {
  type: 'image';
  mimeType: string;
  data: string;
  resource?: AttachedResource;
}
export type ContentPart = TextPart | ImagePart;

/**
 * A server's resource attached to a message (the composer's `@`, MCP 2025-11-25 "Resources"): read when
 * the message is sent, its contents become parts marked with it, so the transcript shows what was attached
 * apart from what was typed, and a regenerate reads it again. `name` is the server's name for it, for
 * display only.
 */
export interface AttachedResource {
  server: string;
  uri: string;
  name?: string;
  /**
   * A server's skill (docs/skills.md), `uri` its SKILL.md: loaded through the skill-loading path (the
   * person's approval for its manifest, a verified read), never read as a plain resource.
   */
  skill?: true;
}

/** The resources attached to a message, each once, in the order they were attached. */
export function attachedResources(parts: readonly ContentPart[]): AttachedResource[] {
  const seen = new Map<string, AttachedResource>();
  for (const p of parts)
    if (p.resource) {
      const key = JSON.stringify([p.resource.server, p.resource.uri]);
      if (!seen.has(key)) seen.set(key, p.resource);
    }
  return [...seen.values()];
}

/** What the person typed (with their text files), without the text of attached resources. */
export const typedText = (parts: readonly ContentPart[]): string =>
  parts.flatMap((p) => (p.type === 'text' && !p.resource ? [p.text] : [])).join('\n');

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
  /**
   * 'protocol': written by the loop (e.g. the text protocol's corrective message), not by the person.
   * 'task': the outcome of a tool call's task that outlived its turn, delivered by Mooring
   * (src-main/core/agent/taskDelivery.ts).
   * 'app': sent by an MCP App view (`ui/message`), named in `app`: shown and sent to the model as the app's.
   */
  origin?: 'person' | 'protocol' | 'task' | 'app';
  app?: AppOrigin;
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
  /** The name the model called (maybe a bare or suffix name; `target` says which tool ran). */
  name: string;
  status: ToolOutcomeStatus;
  /** What the model reads: the result's text, or why the call failed or was refused (the reason only). */
  text: string;
  images?: { mimeType: string; data: string }[];
  /**
   * Where each image stood in the result: the length of `text` before it, so the card shows the server's
   * order (text, image, text). Absent (older conversations): the images follow the text.
   */
  imagesAt?: number[];
  /**
   * How much of `text` the card shows: what follows is the structured content restated for the model,
   * which the card shows as JSON below instead. Absent: all of it.
   */
  textShown?: number;
  structured?: unknown;
  /** The structured content only restates the text: the model got it once; the UI shows it collapsed. */
  structuredInText?: true;
  /** The server tool the name resolved to (absent when none did: an unknown name, tool_search, a limit). */
  target?: { server: string; tool: string; friendlyName: string };
  /** The arguments the tool ran with, as the user edited them before approving (the model is told so). */
  editedArguments?: Record<string, unknown>;
  /** The standing permission it ran under without a question ("Always allow"): the card marks it. */
  grant?: string;
  /**
   * Where what the model read came from (shared/dataFlow.ts): the server and tool, open world or not, and
   * the server's trust labels. What the conversation has read decides which later calls are flows.
   */
  origin?: ReadOrigin;
  /**
   * A `failed` step whose tool answered, with a result marked `isError` (MCP spec, "Tools: Error
   * Handling"), rather than a call that did not complete: an MCP App view gets that result, not a
   * cancellation.
   */
  resultIsError?: true;
  /** A code-mode step (`run_code`): the program, its nested calls, what it printed (shared/codeMode.ts). */
  program?: ProgramStep;
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

export type ChatEvent =
  | { type: 'text-delta'; conversationId: string; messageId: string; text: string }
  | { type: 'note'; conversationId: string; level: 'info' | 'warning'; text: string }
  /**
   * A message was appended to the conversation (on disk before this is sent). `index` is its position
   * among the conversation's messages, so a view holding a snapshot of `index` messages appends it, one
   * holding more ignores it, and one holding fewer knows it missed some (a snapshot plus deltas).
   */
  | { type: 'message-complete'; conversationId: string; index: number; message: ChatMessage }
  | { type: 'error'; conversationId: string; error: ErrorData }
  /** The conversation's model named it after its first answer (saved before this is sent). */
  | { type: 'title'; conversationId: string; title: string }
  /**
   * The arguments of a tool call the model is still writing, recovered from the JSON so far (unclosed
   * strings, arrays and objects closed; a half-written value left out): for an MCP App view, which may
   * render them as they arrive (`ui/notifications/tool-input-partial`). Sent only for a tool with a view;
   * `callId` is the id the call has once `messageId`'s message is complete.
   */
  | {
      type: 'tool-input-partial';
      conversationId: string;
      messageId: string;
      callId: string;
      name: string;
      target: { server: string; tool: string };
      arguments: Record<string, unknown>;
    };

/** One conversation in a list (title search, sidebar). */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The project folder offered as the MCP root (MCP spec, "Roots"); null when none. */
  workspace: string | null;
}

/** The placeholder a non-vision model gets instead of an image: `[image: image/png, 5 KB]`. */
export function imagePlaceholder(mimeType: string, base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  const size = bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`;
  return `[image: ${mimeType}, ${size}]`;
}
