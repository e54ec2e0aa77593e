// The tasks service (ARCHITECTURE.md, "Tasks"): every tool call of the one call path goes through
// `callTool`, which runs it as a task when the server and the tool call for it (taskProtocol.ts), or as a
// plain call that a 2026-07-28 server may still answer with a task. Either way the task is recorded in the
// home (taskRecords.ts), followed to its end (taskFollow.ts) with its status on the call's lifecycle, and
// its result handed back to the caller like any tool result. Cancel sends `tasks/cancel`. When Mooring
// closes, a conversation's task keeps running on the server; the next app start resumes following it
// (`resume`) and hands the outcome to the conversation (`deliver`, which the root's start hands in: the chat).
import { randomUUID } from 'node:crypto';
import type { CallToolResult, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ErrorData } from '@shared/errors';
import type { LogLine } from '@shared/session';
import type { CallTask } from '@shared/tasks';
import { callKey, type Progress, type ToolCallEvent, type ToolCallPhase } from '@shared/toolCall';
import { MooringError, toErrorData } from '../errors';
import type { SessionActor } from '../mcp/sessionActor';
import { callError, createdTaskOf } from '../mcp/sessionErrors';
import type { CallOptions, ResumedSession, ServerRequests, ToolHandle } from '../mcp/types';
import {
  followTask,
  isSuspended,
  TASK_REQUEST_TIMEOUT_MS,
  TASK_SUSPENDED,
  type InputFulfiller,
} from './taskFollow';
import {
  createToolTask,
  runsAsTask,
  serverCancelsTasks,
  snapshotOf,
  type TaskEra,
  type TaskSnapshot,
} from './taskProtocol';
import { processAlive, RELEASED, TaskRecords, type TaskRecord } from './taskRecords';

/** The time to live Mooring asks for (2025-11-25 "Creating Tasks"; the server may choose another). */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;

/** The call a task belongs to: its lifecycle identity. */
export interface TaskCallIdentity {
  id: string;
  conversationId?: string;
  client?: string;
  modelName: string;
  friendlyName: string;
}

export interface TaskCallInput {
  actor: SessionActor;
  handle: ToolHandle;
  args: Record<string, unknown>;
  call: TaskCallIdentity;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** The task's state whenever it changes (the runner puts it on the call's `running` event). */
  onTask: (task: CallTask) => void;
}

/** How a task that outlived its turn ended, for its conversation (the chat's `deliverTaskResult`). */
export interface TaskDelivery {
  conversationId: string;
  /** The model's id of the call that started the task. */
  callId: string;
  server: string;
  tool: string;
  friendlyName: string;
  taskId: string;
  outcome: { status: 'done' | 'failed' | 'cancelled'; result?: CallToolResult; error?: ErrorData };
}

export interface TaskServiceDeps {
  home: string;
  actor: (server: string) => SessionActor | undefined;
  /** Answers a 2026 task's input requests through the client's handlers (clientFeatures). */
  fulfil?: (server: string, ...rest: Parameters<InputFulfiller>) => Promise<unknown>;
  log: (line: LogLine) => void;
  pid?: number;
  isAlive?: (pid: number) => boolean;
  ttlMs?: number;
}

/** Where a resumed task goes (`resume`). */
export interface ResumedTasks {
  /** Hands a resumed task's outcome to its conversation (the chat). */
  deliver: (d: TaskDelivery) => Promise<void>;
  /** A resumed task's lifecycle, on the one tool-call stream (calls/toolService.ts `publish`). */
  publish: (e: Omit<ToolCallEvent, 'seq'>) => void;
}

export class TaskService {
  readonly records: TaskRecords;
  /** The tasks this process follows now, by call key. */
  private readonly followers = new Map<
    string,
    { ac: AbortController; conversationId?: string; done: Promise<unknown> }
  >();
  private readonly pid: number;

  constructor(private readonly deps: TaskServiceDeps) {
    this.records = new TaskRecords(deps.home);
    this.pid = deps.pid ?? process.pid;
  }

  /** One tool call, as a task when the server runs it as one; resolves with the tool's result. */
  callTool(input: TaskCallInput): Promise<CallToolResult> {
    // A ready session is used at once: a call pays no promise for a session it already has.
    const caps = input.actor.requests.capabilities();
    return caps ? this.callOn(input, caps) : this.callWhenReady(input);
  }

  private async callWhenReady(input: TaskCallInput): Promise<CallToolResult> {
    const { requests, config } = input.actor;
    await requests.ready({
      timeoutMs: config.timeoutSeconds * 1000,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    return this.callOn(input, requests.capabilities());
  }

  private async callOn(input: TaskCallInput, caps: ServerCapabilities | undefined): Promise<CallToolResult> {
    const { actor, handle } = input;
    if (runsAsTask(caps, handle.definition))
      return this.createAndFollow(input, actor.config.timeoutSeconds * 1000);
    const opts: CallOptions = {};
    if (input.signal) opts.signal = input.signal;
    if (input.onProgress) opts.onProgress = input.onProgress;
    try {
      return await handle.call(input.args, opts);
    } catch (err) {
      // The 2026-07-28 extension: the server decided to answer with a task ("Polymorphic Results").
      const created = createdTaskOf(err);
      if (!created) throw err;
      return this.follow(input, { era: '2026-07-28', task: snapshotOf(created), caps });
    }
  }

  /** The user cancels a call's task: `tasks/cancel` goes to the server; false when no task runs. */
  cancel(key: string): boolean {
    const f = this.followers.get(key);
    if (!f) return false;
    f.ac.abort(new MooringError('cancelled', 'Cancelled by the user'));
    return true;
  }

  /** Keys of the calls whose task this process follows now. */
  following(): string[] {
    return [...this.followers.keys()];
  }

  /**
   * Mooring is closing. A conversation's task keeps running on the server and stays recorded for the next
   * start; any other (a one-off call: nobody will read it later) is cancelled. Waits for both, briefly.
   */
  async suspend(): Promise<void> {
    for (const f of this.followers.values())
      f.ac.abort(
        f.conversationId
          ? TASK_SUSPENDED
          : new MooringError('cancelled', 'Mooring closed; the task was cancelled on the server'),
      );
    const all = Promise.allSettled([...this.followers.values()].map((f) => f.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, 2_000)))]);
    clearTimeout(timer);
  }

  /**
   * After the sessions started: follows again every recorded task whose process is gone, and hands each
   * outcome to its conversation. A task without a conversation (a one-off call) is forgotten.
   */
  async resume(to: ResumedTasks): Promise<void> {
    const claimed = await this.records.claimOrphans(this.pid, this.deps.isAlive ?? processAlive);
    for (const r of claimed) void this.resumeOne(r, to);
  }

  close(): Promise<void> {
    return this.records.close();
  }

  // ---- one task ---------------------------------------------------------------------------------

  /** 2025-11-25 task augmentation: `tools/call` with `task`, then follow. */
  private async createAndFollow(input: TaskCallInput, timeoutMs: number): Promise<CallToolResult> {
    const { requests } = input.actor;
    // MCP 2025-11-25 "Task Progress Notifications": the token stays valid for the task's whole life.
    const token = `mooring-task-${randomUUID()}`;
    const unroute = input.onProgress ? requests.routeProgress(token, input.onProgress) : () => undefined;
    try {
      let task: TaskSnapshot;
      try {
        task = await createToolTask(
          requests,
          {
            name: input.handle.name,
            arguments: input.args,
            ttlMs: this.deps.ttlMs ?? DEFAULT_TASK_TTL_MS,
            progressToken: token,
          },
          { timeoutMs, ...(input.signal ? { signal: input.signal } : {}) },
        );
      } catch (err) {
        throw callError(err, {
          server: input.actor.name,
          tool: input.handle.name,
          timeoutMs,
          signal: input.signal,
        });
      }
      return await this.follow(input, { era: '2025-11-25', task, caps: requests.capabilities() });
    } finally {
      unroute();
    }
  }

  private async follow(
    input: TaskCallInput,
    start: { era: TaskEra; task: TaskSnapshot; caps: ServerCapabilities | undefined },
  ): Promise<CallToolResult> {
    const { actor, call } = input;
    const key = callKey(call);
    const cancellable = serverCancelsTasks(start.caps, start.era);
    const httpSession = actor.httpSession();
    const record: TaskRecord = {
      key,
      callId: call.id,
      ...(call.conversationId ? { conversationId: call.conversationId } : {}),
      ...(call.client ? { client: call.client } : {}),
      server: actor.name,
      tool: input.handle.name,
      modelName: call.modelName,
      friendlyName: call.friendlyName,
      taskId: start.task.taskId,
      era: start.era,
      ...(httpSession ? { httpSession } : {}),
      status: start.task.status,
      ...(start.task.statusMessage !== undefined ? { statusMessage: start.task.statusMessage } : {}),
      cancellable,
      ...(start.task.pollIntervalMs ? { pollIntervalMs: start.task.pollIntervalMs } : {}),
      startedAt: Date.now(),
      updatedAt: Date.now(),
      ownerPid: this.pid,
    };
    // A record that cannot be written costs only the resume after a restart; the call goes on.
    await this.records.put(record).catch((e: Error) => this.note(actor.name, 'warning', e.message));
    this.note(actor.name, 'info', `runs ${input.handle.name} as task ${start.task.taskId}`);
    const view = (t: TaskSnapshot): CallTask => ({
      taskId: t.taskId,
      status: t.status,
      ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
      cancellable,
    });
    input.onTask(view(start.task));

    const ac = new AbortController();
    const onAbort = () => ac.abort(input.signal?.reason);
    if (input.signal?.aborted) onAbort();
    input.signal?.addEventListener('abort', onAbort, { once: true });
    const done = followTask({
      // The live session across its reconnects: each task request waits for it within its own timeout.
      session: async () => actor.requests,
      era: start.era,
      task: start.task,
      cancellable,
      signal: ac.signal,
      onUpdate: (t) => {
        input.onTask(view(t));
        void this.records
          .patch(key, {
            status: t.status,
            ...(t.statusMessage !== undefined ? { statusMessage: t.statusMessage } : {}),
          })
          .catch(() => undefined);
      },
      ...this.fulfilFor(actor.name),
    });
    const run = (async () => {
      try {
        const end = await done;
        if (end.kind === 'cancelled')
          throw new MooringError('cancelled', `The server cancelled the task ${end.task.taskId}`);
        return end.result;
      } finally {
        input.signal?.removeEventListener('abort', onAbort);
        this.followers.delete(key);
        // Suspended: the record stays, released, for the next start. Otherwise the caller has the outcome.
        if (isSuspended(ac.signal))
          await this.records.patch(key, { ownerPid: RELEASED }).catch(() => undefined);
        else await this.records.remove(key).catch(() => undefined);
      }
    })();
    this.followers.set(key, {
      ac,
      ...(call.conversationId ? { conversationId: call.conversationId } : {}),
      done: run,
    });
    return run;
  }

  /** Follows a task whose process ended (Mooring restarted) and delivers its outcome. */
  private async resumeOne(r: TaskRecord, to: ResumedTasks): Promise<void> {
    if (!r.conversationId) {
      this.note(r.server, 'info', `forgot task ${r.taskId} of ${r.tool}: the call that started it has ended`);
      await this.records.remove(r.key).catch(() => undefined);
      return;
    }
    const actor = this.deps.actor(r.server);
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
      this.note(r.server, 'info', `resumes following task ${r.taskId} of ${r.tool}`);
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
          void this.records.patch(r.key, { status: t.status }).catch(() => undefined);
        },
        ...this.fulfilFor(r.server),
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
          return void (await this.records.patch(r.key, { ownerPid: RELEASED }).catch(() => undefined));
        const error = toErrorData(err);
        to.publish({ ...base, phase: 'failed', at: Date.now(), error });
        outcome = { status: error.code === 'cancelled' ? 'cancelled' : 'failed', error };
      } finally {
        this.followers.delete(r.key);
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
        await this.records.remove(r.key);
      } catch (err) {
        this.note(r.server, 'warning', `could not deliver task ${r.taskId}: ${toErrorData(err).message}`);
      }
    })();
    this.followers.set(r.key, { ac, conversationId: r.conversationId, done: finished });
    await finished;
  }

  private fulfilFor(server: string): { fulfil?: InputFulfiller } {
    const f = this.deps.fulfil;
    return f ? { fulfil: (request, signal) => f(server, request, signal) } : {};
  }

  private note(server: string, level: LogLine['level'], text: string): void {
    this.deps.log({ server, at: Date.now(), source: 'host', level, text });
  }
}
