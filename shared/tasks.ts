// A tool call that runs as a task (MCP 2025-11-25 "Tasks", task augmentation; the `io.modelcontextprotocol/tasks`
// extension of 2026-07-28): the server answers at once with a task, and Mooring follows it until it ends.
// What the call's lifecycle (shared/toolCall.ts) and the UI see of it. Plain data, no Node.
import type { ErrorData } from './errors';

/** The task states both revisions share (2025-11-25 "Task Status"; the extension's "Task Status"). */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const isTerminalTaskStatus = (s: TaskStatus): boolean =>
  s === 'completed' || s === 'failed' || s === 'cancelled';

/** The task of a call, as its card shows it. */
export interface CallTask {
  /** The server's id of the task. */
  taskId: string;
  status: TaskStatus;
  /** The server's words on where the task stands (e.g. "Analyzing content..."): untrusted text. */
  statusMessage?: string;
  /** The server accepts a request to cancel it (2025: `tasks.cancel` capability; always in 2026). */
  cancellable: boolean;
  /** Followed again after Mooring restarted: the turn that started it had ended. */
  resumed?: boolean;
}

/**
 * How a task that outlived its turn ended, for its conversation: the tasks service delivers it, the chat
 * appends it (docs/tasks-and-resources.md, "Tasks"). `Result` is the tool's result as the core holds it.
 */
export interface DeliveredTask<Result> {
  conversationId: string;
  /** The model's id of the call that started the task. */
  callId: string;
  server: string;
  tool: string;
  friendlyName: string;
  taskId: string;
  outcome: { status: 'done' | 'failed' | 'cancelled'; result?: Result; error?: ErrorData };
}
