// Following again a task that outlived its process (docs/tasks-and-resources.md, "Tasks"): after a restart,
// each recorded task of a conversation is followed to its end on its server (on the Streamable HTTP session
// that created it, when the server binds tasks to sessions), its lifecycle published on the one tool-call
// stream, and its outcome delivered to its conversation. The tasks service (taskService.ts) claims the records.
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { LogLine } from '@shared/session';
import type { DeliveredTask } from '@shared/tasks';
import type { ToolCallEvent, ToolCallPhase } from '@shared/toolCall';
import { MooringError, toErrorData } from '../errors';
import type { SessionActor } from '../mcp/sessionActor';
import type { ResumedSession, ServerRequests } from '../mcp/types';
import { followTask, isSuspended, TASK_REQUEST_TIMEOUT_MS, type InputFulfiller } from './taskFollow';
import type { TaskSnapshot } from './taskProtocol';
import { RELEASED, type TaskRecord, type TaskRecords } from './taskRecords';

/** How a task that outlived its turn ended, for its conversation (the chat's `deliverTaskResult`). */
export type TaskDelivery = DeliveredTask<CallToolResult>;

/** Where a resumed task goes (`resume`). */
export interface ResumedTasks {
  /** Hands a resumed task's outcome to its conversation (the chat). */
  deliver: (d: TaskDelivery) => Promise<void>;
  /** A resumed task's lifecycle, on the one tool-call stream (calls/toolService.ts `publish`). */
  publish: (e: Omit<ToolCallEvent, 'seq'>) => void;
}

/** A task this process follows now: how to stop it, its conversation, and its end. */
export interface TaskFollower {
  ac: AbortController;
  conversationId?: string;
  done: Promise<unknown>;
}

/** What resuming needs of the tasks service. */
export interface ResumeContext {
  actor: (server: string) => SessionActor | undefined;
  records: TaskRecords;
  /** The service's followers, so a cancel or a suspend reaches a resumed task too. */
  followers: Map<string, TaskFollower>;
  fulfil: (server: string) => { fulfil?: InputFulfiller };
  note: (server: string, level: LogLine['level'], text: string) => void;
}

/** Follows a task whose process ended (Mooring restarted) and delivers its outcome. */
export async function resumeTask(r: TaskRecord, to: ResumedTasks, ctx: ResumeContext): Promise<void> {
  if (!r.conversationId) {
    ctx.note(r.server, 'info', `forgot task ${r.taskId} of ${r.tool}: the call that started it has ended`);
    await ctx.records.remove(r.key).catch(() => undefined);
    return;
  }
  const actor = ctx.actor(r.server);
  const ac = new AbortController();
  const base = {
    id: r.callId,
    server: r.server,
    tool: r.tool,
    modelName: r.modelName,
    friendlyName: r.friendlyName,
    conversationId: r.conversationId,
    ...(r.client ? { client: r.client } : {}),
  };
  const emit = (phase: ToolCallPhase, task: TaskSnapshot, extra: Partial<ToolCallEvent> = {}) =>
    to.publish({
      ...base,
      phase,
      at: Date.now(),
      task: {
        taskId: task.taskId,
        status: task.status,
        ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
        cancellable: r.cancellable,
        resumed: true,
      },
      ...extra,
    });
  const first: TaskSnapshot = {
    taskId: r.taskId,
    status: r.status,
    ...(r.statusMessage !== undefined ? { statusMessage: r.statusMessage } : {}),
    ...(r.pollIntervalMs ? { pollIntervalMs: r.pollIntervalMs } : {}),
  };
  let side: ResumedSession | undefined;
  const done = (async (): Promise<TaskDelivery['outcome']> => {
    if (!actor) throw new MooringError('not_found', `"${r.server}" is no longer configured`);
    emit('running', first);
    ctx.note(r.server, 'info', `resumes following task ${r.taskId} of ${r.tool}`);
    const session = async (): Promise<ServerRequests> => {
      if (!r.httpSession) return actor.requests;
      // A 2025 server may bind its tasks to the session that created them: ask that session.
      await actor.requests.ready({ timeoutMs: TASK_REQUEST_TIMEOUT_MS, signal: ac.signal });
      if (actor.httpSession()?.sessionId === r.httpSession.sessionId) return actor.requests;
      side ??= await actor.resumeHttpSession(r.httpSession.sessionId, r.httpSession.protocolVersion);
      return side;
    };
    const end = await followTask({
      session,
      era: r.era,
      task: first,
      cancellable: r.cancellable,
      signal: ac.signal,
      onUpdate: (t) => {
        emit('running', t);
        void ctx.records.patch(r.key, { status: t.status }).catch(() => undefined);
      },
      ...ctx.fulfil(r.server),
    });
    if (end.kind === 'cancelled') {
      emit('failed', end.task, {
        error: { code: 'cancelled', message: `The server cancelled the task ${r.taskId}` },
      });
      return { status: 'cancelled' };
    }
    emit(end.result.isError ? 'failed' : 'done', end.task);
    return { status: end.result.isError ? 'failed' : 'done', result: end.result };
  })();
  const finished = (async () => {
    let outcome: TaskDelivery['outcome'];
    try {
      outcome = await done;
    } catch (err) {
      // Closing again: released for the next start.
      if (isSuspended(ac.signal))
        return void (await ctx.records.patch(r.key, { ownerPid: RELEASED }).catch(() => undefined));
      const error = toErrorData(err);
      to.publish({ ...base, phase: 'failed', at: Date.now(), error });
      outcome = { status: error.code === 'cancelled' ? 'cancelled' : 'failed', error };
    } finally {
      ctx.followers.delete(r.key);
      await side?.close().catch(() => undefined);
    }
    try {
      await to.deliver({
        conversationId: r.conversationId!,
        callId: r.callId,
        server: r.server,
        tool: r.tool,
        friendlyName: r.friendlyName,
        taskId: r.taskId,
        outcome,
      });
      await ctx.records.remove(r.key);
    } catch (err) {
      ctx.note(r.server, 'warning', `could not deliver task ${r.taskId}: ${toErrorData(err).message}`);
    }
  })();
  ctx.followers.set(r.key, { ac, conversationId: r.conversationId, done: finished });
  await finished;
}
