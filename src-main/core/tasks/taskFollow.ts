// Follows one task until it ends, as the requestor both revisions describe:
// - poll `tasks/get`, at the server's `pollInterval` ("Getting Tasks": SHOULD respect it), woken early by a
//   status notification for this task (which a client MUST NOT rely on, so polling never stops);
// - 2025-11-25 `input_required`: call `tasks/result` at once ("Input Required Status": the server sends its
//   requests through that stream to the client's handlers), and keep polling for the status meanwhile;
// - 2026-07-28 `input_required`: answer each new `inputRequests` key once through the same handlers as a
//   standalone request (the extension: "the same trust model"), then `tasks/update`;
// - at the end: the tool's result (2025 `tasks/result`; 2026 inline), or the error, or "cancelled".
// An abort whose reason is TASK_SUSPENDED (Mooring closing) stops following and leaves the task running on
// the server; any other abort (the user cancelled) sends `tasks/cancel` when the server accepts it.
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import { isTerminalTaskStatus } from '@shared/tasks';
import { MooringError } from '../errors';
import { wireErrorOf } from '../mcp/sessionErrors';
import type { ServerRequests } from '../mcp/types';
import {
  cancelTask,
  getTask,
  snapshotOf,
  taskResult,
  updateTask,
  type TaskEra,
  type TaskSnapshot,
} from './taskProtocol';

/** The abort reason that means "Mooring is closing: stop following, do not cancel the task". */
export const TASK_SUSPENDED = 'mooring:task-suspended';

/** Poll at least this often when the server suggests nothing, and never faster than the floor. */
export const DEFAULT_POLL_MS = 1_000;
const MIN_POLL_MS = 200;
const MAX_POLL_MS = 30_000;
/** One task request (not the task): a server that does not answer a poll in this long is retried. */
export const TASK_REQUEST_TIMEOUT_MS = 30_000;

/** Answers one server→client request of a 2026 task (`elicitation/create`, `sampling/createMessage`, …). */
export type InputFulfiller = (
  request: { method: string; params?: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<unknown>;

export interface FollowInput {
  /** The session the task lives in: the live one (across its reconnects), or a resumed one. */
  session: () => Promise<Pick<ServerRequests, 'request' | 'onTaskStatus'>>;
  era: TaskEra;
  task: TaskSnapshot;
  /** Whether tasks/cancel is worth sending (the server accepts it). */
  cancellable: boolean;
  signal?: AbortSignal;
  onUpdate: (task: TaskSnapshot) => void;
  fulfil?: InputFulfiller;
  sleep?: (ms: number, wake: AbortSignal) => Promise<void>;
}

export type TaskEnd =
  { kind: 'result'; result: CallToolResult; task: TaskSnapshot } | { kind: 'cancelled'; task: TaskSnapshot };

const sleepUntil = (ms: number, wake: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (wake.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      wake.removeEventListener('abort', done);
      resolve();
    }
    wake.addEventListener('abort', done, { once: true });
  });

export const isSuspended = (signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true && signal.reason === TASK_SUSPENDED;

/** Follows the task to its end; throws on a failed or lost task, `cancelled` on abort. */
export async function followTask(input: FollowInput): Promise<TaskEnd> {
  const sleep = input.sleep ?? sleepUntil;
  let task = input.task;
  const answered = new Set<string>();
  let resultCall: Promise<CallToolResult> | undefined;
  let resultSettled = false;
  // A status notification (or the end of tasks/result) cuts the wait short.
  let wake = new AbortController();
  const seen = (next: TaskSnapshot) => {
    // A notification sent before the last poll's answer may arrive after it: older news is dropped.
    if (isOlder(next, task)) return;
    const changed = next.status !== task.status || next.statusMessage !== task.statusMessage;
    task = { ...task, ...next };
    if (changed) input.onUpdate(task);
  };
  const stopListening = (await input.session()).onTaskStatus((n) => {
    if (n.taskId !== task.taskId) return;
    // The notification carries the whole task (2026: with its result); a bad one only wakes the poll.
    try {
      seen(snapshotOf(n));
    } catch {
      // polled below
    }
    wake.abort();
  });
  try {
    for (;;) {
      throwIfAborted(input, task);
      if (isTerminalTaskStatus(task.status) && !resultCall) return await finish(input, task);
      if (task.status === 'input_required') {
        if (input.era === '2025-11-25' && !resultCall) {
          resultCall = taskResult(await input.session(), task.taskId, {
            timeoutMs: 24 * 60 * 60_000,
            ...(input.signal ? { signal: input.signal } : {}),
          });
          // Its end (a result or an error) is the task's end: wake the loop to collect it.
          resultCall.then(
            () => {
              resultSettled = true;
              wake.abort();
            },
            () => {
              resultSettled = true;
              wake.abort();
            },
          );
        } else if (input.era === '2026-07-28') await answerInputs(input, task, answered);
      }
      if (resultCall && resultSettled) {
        const result = await resultCall.catch((err: unknown) => {
          throw endError(task, err);
        });
        return { kind: 'result', result, task: { ...task, status: 'completed' } };
      }
      const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, task.pollIntervalMs ?? DEFAULT_POLL_MS));
      await sleep(interval, anySignal(wake.signal, input.signal));
      wake = new AbortController();
      throwIfAborted(input, task);
      seen(await poll(input, task));
    }
  } catch (err) {
    if (input.signal?.aborted && !isSuspended(input.signal) && input.cancellable)
      await sendCancel(input, task);
    throw err;
  } finally {
    stopListening();
  }
}

async function poll(input: FollowInput, task: TaskSnapshot): Promise<TaskSnapshot> {
  try {
    return await getTask(await input.session(), task.taskId, {
      timeoutMs: TASK_REQUEST_TIMEOUT_MS,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (err) {
    const wire = wireErrorOf(err);
    if (wire?.code === -32602)
      throw new MooringError(
        'not_found',
        `The server no longer knows the task ${task.taskId} (${wire.message})`,
        'It may have restarted, or the task outlived its time to live; run the tool again.',
        { cause: err },
      );
    throw err;
  }
}

/** The task ended: its result (2025 tasks/result; 2026 inline), or why not. */
async function finish(input: FollowInput, task: TaskSnapshot): Promise<TaskEnd> {
  if (task.status === 'cancelled') return { kind: 'cancelled', task };
  if (input.era === '2026-07-28') {
    if (task.status === 'completed' && task.result) return { kind: 'result', result: task.result, task };
    throw endError(task, task.error ? new ProtocolError(task.error.code, task.error.message) : undefined);
  }
  // 2025: a failed task answers tasks/result with the call's error or with its isError result.
  try {
    const result = await taskResult(await input.session(), task.taskId, {
      timeoutMs: TASK_REQUEST_TIMEOUT_MS,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    return { kind: 'result', result, task };
  } catch (err) {
    throw endError(task, err);
  }
}

function endError(task: TaskSnapshot, err: unknown): MooringError {
  // The server's own error (2025 tasks/result answers what tools/call would have) says why the task failed;
  // a local one (timeout, cancellation, a broken connection) is thrown as it is.
  const wire = wireErrorOf(err);
  if (err instanceof MooringError && !wire) return err;
  const why = wire ? `error ${wire.code}: ${wire.message}` : task.statusMessage;
  return new MooringError(
    'tool_error',
    `The task ${task.taskId} ${task.status === 'failed' ? 'failed' : 'ended without a result'}${why ? `: ${why}` : ''}`,
    undefined,
    { cause: err },
  );
}

async function answerInputs(input: FollowInput, task: TaskSnapshot, answered: Set<string>): Promise<void> {
  const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
  if (!fresh.length || !input.fulfil) return;
  const signal = input.signal ?? new AbortController().signal;
  const responses: Record<string, unknown> = {};
  for (const [key, request] of fresh) {
    answered.add(key);
    responses[key] = await input.fulfil(request, signal);
  }
  await updateTask(
    await input.session(),
    { taskId: task.taskId, inputResponses: responses },
    { timeoutMs: TASK_REQUEST_TIMEOUT_MS, signal },
  );
}

async function sendCancel(input: FollowInput, task: TaskSnapshot): Promise<void> {
  try {
    await cancelTask(await input.session(), task.taskId, { timeoutMs: 5_000 });
  } catch {
    // Best effort: the task may have ended meanwhile (-32602), or the session is gone.
  }
}

function throwIfAborted(input: FollowInput, task: TaskSnapshot): void {
  const s = input.signal;
  if (!s?.aborted) return;
  if (s.reason === TASK_SUSPENDED)
    throw new MooringError('cancelled', `Mooring closed while the task ${task.taskId} was running`);
  throw s.reason instanceof MooringError
    ? s.reason
    : new MooringError('cancelled', `The task ${task.taskId} was cancelled`);
}

function isOlder(next: TaskSnapshot, held: TaskSnapshot): boolean {
  const a = next.lastUpdatedAt ? Date.parse(next.lastUpdatedAt) : NaN;
  const b = held.lastUpdatedAt ? Date.parse(held.lastUpdatedAt) : NaN;
  return a < b;
}

function anySignal(a: AbortSignal, b: AbortSignal | undefined): AbortSignal {
  return b ? AbortSignal.any([a, b]) : a;
}
