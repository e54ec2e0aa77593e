// The SDK client with the wire hooks Mooring's tasks need (ARCHITECTURE.md, "Tasks"; the tasks room,
// core/tasks/, holds the logic). The v2 SDK dropped its task helpers: task methods are 2025-11-25 wire
// vocabulary it still parses but does not route, and it rejects a 2026-07-28 `resultType: "task"` result.
// Three hooks, on the override seams the SDK documents (`_onnotification`, `_onresponse`: consume only what
// is ours, hand the rest to `super`):
// - progress for a task: MCP 2025-11-25 "Tasks" (Task Progress Notifications) keeps the request's
//   `progressToken` valid for the task's whole life, long after the SDK dropped its handler with the
//   CreateTaskResult. Tokens Mooring chose (strings) are routed here.
// - status notifications: `notifications/tasks/status` (2025-11-25) and `notifications/tasks` (the
//   `io.modelcontextprotocol/tasks` extension of 2026-07-28) reach the listeners.
// - a 2026-07-28 CreateTaskResult (`resultType: "task"`, extension "Polymorphic Results") is turned into a
//   local error carrying the task, so the caller that issued the request can follow it instead of failing.
import {
  Client,
  ProtocolError,
  type JSONRPCErrorResponse,
  type JSONRPCNotification,
  type JSONRPCResponse,
  type MessageExtraInfo,
} from '@modelcontextprotocol/client';
import type { Progress } from '@shared/toolCall';

/** Who Mooring says it is in every handshake. */
export const MOORING_CLIENT_INFO = { name: 'Mooring', version: '0.1.0' };

/** Never sent on the wire: marks a request the server answered with a task (2026-07-28). */
export const TASK_CREATED_CODE = -32099;
const TASK_CREATED_MARK = 'mooring:taskCreated';

/** A task as a status notification carries it (both eras put the task's fields in `params`). */
export type TaskNotice = Record<string, unknown> & { taskId: string };

export class MooringClient extends Client {
  private readonly progressRoutes = new Map<string, (p: Progress) => void>();
  private readonly statusListeners = new Set<(task: TaskNotice) => void>();

  /** Progress notifications carrying `token` go to `fn` until the returned function is called. */
  routeProgress(token: string, fn: (p: Progress) => void): () => void {
    this.progressRoutes.set(token, fn);
    return () => this.progressRoutes.delete(token);
  }

  /** Every task status notification, until the returned function is called. */
  onTaskStatus(fn: (task: TaskNotice) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  protected override _onnotification(n: JSONRPCNotification, extra?: MessageExtraInfo): void {
    const params = (n.params ?? {}) as Record<string, unknown>;
    if (n.method === 'notifications/progress') {
      const token = params.progressToken;
      const route = typeof token === 'string' ? this.progressRoutes.get(token) : undefined;
      if (route && typeof params.progress === 'number') {
        route({
          progress: params.progress,
          ...(typeof params.total === 'number' ? { total: params.total } : {}),
          ...(typeof params.message === 'string' ? { message: params.message } : {}),
        });
        return;
      }
    }
    if (n.method === 'notifications/tasks/status' || n.method === 'notifications/tasks') {
      if (typeof params.taskId === 'string') for (const fn of this.statusListeners) fn(params as TaskNotice);
      return;
    }
    super._onnotification(n, extra);
  }

  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    const result =
      'result' in response ? (response.result as Record<string, unknown> | undefined) : undefined;
    if (result?.resultType === 'task') {
      super._onresponse({
        jsonrpc: '2.0',
        id: response.id,
        error: {
          code: TASK_CREATED_CODE,
          message: 'The server runs this request as a task',
          data: { [TASK_CREATED_MARK]: result },
        },
      });
      return;
    }
    super._onresponse(response);
  }
}

/** The task a 2026-07-28 server answered a request with, when `err` says so (see MooringClient). */
export function createdTaskOf(err: unknown): Record<string, unknown> | undefined {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof ProtocolError && e.code === TASK_CREATED_CODE) {
      const task = (e.data as Record<string, unknown> | undefined)?.[TASK_CREATED_MARK];
      if (task && typeof task === 'object') return task as Record<string, unknown>;
    }
  }
  return undefined;
}
