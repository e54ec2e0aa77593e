// The seam between the tool loop and everything that runs a tool (issue 6). The lead wires the real
// path behind it: catalog resolves and repairs → safety decides (auto, ask, refuse) → the session
// sends tools/call. The loop only knows this interface, so tests can hand it any runtime.
import type { ToolOutcomeStatus } from '@shared/chat';
import type { Progress } from '@shared/toolCall';
import type { ModelTool } from './providers/types';

export type { ModelTool };

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolOutcome {
  status: ToolOutcomeStatus;
  /** What the model reads: the result text, or why the call failed or was refused. */
  text: string;
  images?: { mimeType: string; data: string }[];
  structured?: unknown;
}

/** Lifecycle updates between `requested` and the outcome; the loop adds the final state itself. */
export type ToolCallUpdate = { state: 'awaiting-approval' } | { state: 'running'; progress?: Progress };

export interface ToolExecutionContext {
  conversationId: string;
  /** Aborted when the turn is cancelled: the runtime sends notifications/cancelled and settles. */
  signal: AbortSignal;
  emit: (update: ToolCallUpdate) => void;
}

export interface AgentToolRuntime {
  tools(conversationId: string): ModelTool[];
  /** Should not throw for a tool's own failure (return status 'failed'); a throw is reported as failed. */
  execute(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolOutcome>;
}
