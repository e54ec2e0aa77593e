// What "delivered" means for a task that outlived its turn (docs/tasks-and-resources.md, "Tasks"): when Mooring closed
// while a conversation's tool call ran as a task on the server, its turn ended with that call unfinished;
// the next start follows the task again (tasks/taskService.ts) and, when it ends, its outcome is appended to
// the conversation as one message from Mooring (`origin: 'task'`), written to disk before it is announced,
// which the model reads like any message; then a turn runs so the model answers it. One message per task:
// its id is derived from the call and the task, so a second delivery after a crash finds it and stops.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { DeliveredTask as SharedDeliveredTask } from '@shared/tasks';
import { normalizeResult, toModelContent } from '../catalog/normalizeResult';

export type DeliveredTask = SharedDeliveredTask<CallToolResult>;

/** The message's id: the same for the same task, so it is delivered once. */
export const deliveryMessageId = (t: DeliveredTask): string => `task:${t.callId}:${t.taskId}`;

/** Cap on the result text one delivery puts into the prompt, like a tool result's. */
const MAX_CHARS = 20_000;

/** What the model reads: which call, that its turn had ended, and the outcome. */
export function deliveryText(t: DeliveredTask): string {
  const what = `The tool call ${t.callId} (${t.friendlyName}, server "${t.server}") ran as a background task (${t.taskId}) that was still running when Mooring closed, so its turn ended without it.`;
  const { status, result, error } = t.outcome;
  if (status === 'cancelled') return `${what} The task was cancelled on the server; there is no result.`;
  if (!result) return `${what} The task failed: ${error?.message ?? 'no reason given'}.`;
  const content = toModelContent(normalizeResult(result), { vision: false, maxChars: MAX_CHARS });
  const text = content.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  return status === 'failed'
    ? `${what} The task ended with an error:\n\n${text}`
    : `${what} It has now completed. Its result:\n\n${text}`;
}
