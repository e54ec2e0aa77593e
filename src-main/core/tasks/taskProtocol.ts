// The task messages of both revisions, on the SDK's request API (the v2 SDK has no task helpers):
// - MCP 2025-11-25 "Tasks" (task augmentation): the client adds `task: {ttl}` to `tools/call` when the
//   server declares `tasks.requests.tools.call` and the tool's `execution.taskSupport` is "required" or
//   "optional" ("Tool-Level Negotiation"); the answer is a CreateTaskResult `{task}`; `tasks/get` polls,
//   `tasks/result` returns the tool's result (and blocks until the task ends), `tasks/cancel` cancels.
// - The `io.modelcontextprotocol/tasks` extension of 2026-07-28: the server decides per request and
//   answers `resultType: "task"` with the task's fields inline (mcp/requestHandler.ts catches that); `tasks/get`
//   returns a DetailedTask that carries the result, the error or the `inputRequests`, which the client
//   answers with `tasks/update`; `tasks/cancel` only acknowledges.
// Field names differ (`ttl`/`pollInterval` in 2025, `ttlMs`/`pollIntervalMs` in 2026): one snapshot type.
// Every message goes through the session's request handler (mcp/requestHandler.ts): the same timeout,
// abort, redaction, metrics and traffic trace as a tool call.
import { z } from 'zod';
import type { CallToolResult, ServerCapabilities } from '@modelcontextprotocol/client';
import type { TaskStatus } from '@shared/tasks';
import { TASK_STATUSES } from '@shared/tasks';
import type { ServerRequests, Tool } from '../mcp/types';

/** What the task messages need of a session. */
export type TaskRequests = Pick<ServerRequests, 'request'>;

/** Which revision's task messages a task speaks. */
export type TaskEra = '2025-11-25' | '2026-07-28';

/** The extension's identifier (capabilities.extensions, per-request client capabilities). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A task as Mooring keeps it, whichever revision sent it. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601, as the server wrote it. */
  createdAt?: string;
  /** ISO 8601: when the status last changed (both revisions MUST send it; kept only when they do). */
  lastUpdatedAt?: string;
  /** Milliseconds from creation before the server may drop the task; null: unlimited. */
  ttlMs?: number | null;
  /** How often the server asks to be polled. */
  pollIntervalMs?: number;
  /** 2026 `completed`: the tool's result, inline. */
  result?: CallToolResult;
  /** 2026 `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
  /** 2026 `input_required`: the requests to answer with tasks/update, by key. */
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
}

const Num = z.number().nullable().optional();
const WireTask = z.looseObject({
  taskId: z.string().min(1),
  status: z.enum(TASK_STATUSES),
  statusMessage: z.string().optional(),
  createdAt: z.string().optional(),
  lastUpdatedAt: z.string().optional(),
  ttl: Num,
  ttlMs: Num,
  pollInterval: Num,
  pollIntervalMs: Num,
  result: z.looseObject({}).optional(),
  error: z.looseObject({ code: z.number(), message: z.string() }).optional(),
  inputRequests: z.record(z.string(), z.looseObject({ method: z.string() })).optional(),
});
const CreateTaskResult2025 = z.looseObject({ task: WireTask });
const AnyResult = z.looseObject({});

/** A task off the wire, either revision's field names. */
export function snapshotOf(raw: unknown): TaskSnapshot {
  const t = WireTask.parse(raw);
  const ttl = t.ttlMs !== undefined ? t.ttlMs : t.ttl;
  const poll = t.pollIntervalMs ?? t.pollInterval;
  return {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
    ...(t.createdAt !== undefined ? { createdAt: t.createdAt } : {}),
    ...(t.lastUpdatedAt !== undefined ? { lastUpdatedAt: t.lastUpdatedAt } : {}),
    ...(ttl !== undefined ? { ttlMs: ttl } : {}),
    ...(typeof poll === 'number' && poll > 0 ? { pollIntervalMs: poll } : {}),
    ...(t.result ? { result: t.result as CallToolResult } : {}),
    ...(t.error ? { error: t.error as TaskSnapshot['error'] & object } : {}),
    ...(t.inputRequests ? { inputRequests: t.inputRequests as TaskSnapshot['inputRequests'] & object } : {}),
  };
}

export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** The tool's `execution.taskSupport` (absent means "forbidden", 2025-11-25 "Tool-Level Negotiation"). */
export function taskSupportOf(tool: Tool): TaskSupport {
  const v = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return v === 'required' || v === 'optional' ? v : 'forbidden';
}

/** Whether the server declared task-augmented `tools/call` (2025-11-25 "Server Capabilities"). */
export function serverAugmentsToolCalls(caps: ServerCapabilities | undefined): boolean {
  const tasks = (caps as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return Boolean(tasks?.requests?.tools?.call);
}

/** Whether a 2025 server accepts `tasks/cancel` (its `tasks.cancel` capability); 2026 always does. */
export function serverCancelsTasks(caps: ServerCapabilities | undefined, era: TaskEra): boolean {
  if (era === '2026-07-28') return true;
  return Boolean((caps as { tasks?: { cancel?: unknown } } | undefined)?.tasks?.cancel);
}

/**
 * How a call of this tool runs: as a task when the server augments tool calls and the tool requires or
 * allows it ("optional" ones too: a long call survives a restart of Mooring); otherwise as a plain call.
 */
export function runsAsTask(caps: ServerCapabilities | undefined, tool: Tool): boolean {
  return serverAugmentsToolCalls(caps) && taskSupportOf(tool) !== 'forbidden';
}

export interface RequestOpts {
  signal?: AbortSignal;
  timeoutMs: number;
}

/** 2025-11-25 "Creating Tasks": `tools/call` with a `task` field; the answer is the task, not the result. */
export async function createToolTask(
  requests: TaskRequests,
  input: { name: string; arguments: Record<string, unknown>; ttlMs: number; progressToken: string },
  opts: RequestOpts,
): Promise<TaskSnapshot> {
  const res = await requests.request(
    {
      method: 'tools/call',
      params: {
        name: input.name,
        arguments: input.arguments,
        task: { ttl: input.ttlMs },
        _meta: { progressToken: input.progressToken },
      },
    },
    CreateTaskResult2025,
    opts,
  );
  return snapshotOf(res.task);
}

/** `tasks/get` (both revisions; the 2026 answer carries the result, the error or the input requests). */
export async function getTask(
  requests: TaskRequests,
  taskId: string,
  opts: RequestOpts,
): Promise<TaskSnapshot> {
  return snapshotOf(await requests.request({ method: 'tasks/get', params: { taskId } }, WireTask, opts));
}

/**
 * 2025-11-25 "Retrieving Task Results": `tasks/result` answers exactly what `tools/call` would have (a
 * result, or the same JSON-RPC error), blocking until the task ends. While it blocks, the server sends the
 * requests the task needs (elicitation, sampling) to the client's handlers ("Input Required Status").
 */
export async function taskResult(
  requests: TaskRequests,
  taskId: string,
  opts: RequestOpts,
): Promise<CallToolResult> {
  const res = await requests.request({ method: 'tasks/result', params: { taskId } }, AnyResult, opts);
  const r = res as CallToolResult;
  return Array.isArray(r.content) ? r : { ...r, content: [] };
}

/** `tasks/cancel` (2025: answers the cancelled task; 2026: an acknowledgement only). */
export async function cancelTask(requests: TaskRequests, taskId: string, opts: RequestOpts): Promise<void> {
  await requests.request({ method: 'tasks/cancel', params: { taskId } }, AnyResult, opts);
}

/** 2026-07-28 extension "Task Update Requests": the answers to the task's `inputRequests`, by key. */
export async function updateTask(
  requests: TaskRequests,
  input: { taskId: string; inputResponses: Record<string, unknown> },
  opts: RequestOpts,
): Promise<void> {
  await requests.request(
    { method: 'tasks/update', params: { taskId: input.taskId, inputResponses: input.inputResponses } },
    AnyResult,
    opts,
  );
}
