// The seam between the tool loop and everything that runs a tool (ARCHITECTURE.md, "The path of one tool
// call"): the core's runtime (coreToolRuntime.ts) resolves the name and calls through the tools service's
// one gated call. The loop only knows this interface, so tests can hand it any runtime.
import type { ToolChatMessage, ToolOutcomeStatus } from '@shared/chat';
import type { ProgramStep } from '@shared/codeMode';
import type { ReadOrigin } from '@shared/dataFlow';
import type { ToolCallEvent } from '@shared/toolCall';
import type { ModelTool } from './providers/types';

export type { ModelTool };

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolOutcome {
  status: ToolOutcomeStatus;
  /** What the model reads: the result text, or why the call failed or was refused (the reason only). */
  text: string;
  images?: { mimeType: string; data: string }[];
  /** Where each image stood in the result (shared/chat.ts, ToolChatMessage). */
  imagesAt?: number[];
  /** How much of `text` the card shows (shared/chat.ts, ToolChatMessage). */
  textShown?: number;
  structured?: unknown;
  /** The structured content only restates the text: the model reads it once. */
  structuredInText?: true;
  /** The server tool the name resolved to. */
  target?: ToolChatMessage['target'];
  /** The arguments the tool ran with, when the user edited them before approving. */
  editedArguments?: Record<string, unknown>;
  /** The standing permission it ran under without a question (shared/chat.ts, ToolChatMessage). */
  grant?: string;
  /** `failed` because the tool's result was marked `isError`, not because the call did not complete. */
  resultIsError?: true;
  /** Where the result came from, for the flows of later calls (shared/dataFlow.ts). */
  origin?: ToolChatMessage['origin'];
  /** A code-mode step: the program and its nested calls (shared/codeMode.ts). */
  program?: ProgramStep;
}

export interface ToolExecutionContext {
  conversationId: string;
  /** Aborted when the turn is cancelled: the runtime sends notifications/cancelled and settles. */
  signal: AbortSignal;
  /** Each lifecycle event of this call (shared/toolCall.ts), like `onProgress` for progress. */
  onPhase?: (e: ToolCallEvent) => void;
  /** What the conversation has read so far (each result's origin): the gate asks about flows. */
  readFrom?: readonly ReadOrigin[];
  /** The code-mode program making this call, and which call it is: its approval shows them. */
  program?: { code: string; call: number };
}

export interface AgentToolRuntime {
  tools(conversationId: string): ModelTool[];
  /**
   * Called once as a turn starts: takes the tools the person switched on or off since the last turn into
   * the list `tools` returns, and says so in one line for the chat (undefined when nothing moved).
   */
  beginTurn?(conversationId: string): string | undefined;
  /**
   * What the model must know of the tools beyond their definitions (the names of deferred tools); the
   * same text on every turn of a conversation, so prompt caches keep hitting.
   */
  systemPrompt?(conversationId: string): string | undefined;
  /**
   * Resolves the name (bare and suffix names included) and runs the call. Should not throw for a
   * tool's own failure (return status 'failed'); a throw is reported as failed.
   */
  execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome>;
  /**
   * The server tool a name resolves to when that tool has an MCP App view (its arguments are streamed to
   * the view while the model writes them); undefined otherwise, or when the name does not resolve.
   */
  viewTarget?(conversationId: string, name: string): { server: string; tool: string } | undefined;
}
