// The tasks Mooring follows, kept in the home (`tasks.json`, a JsonFileStore: docs/data-on-disk.md, "Data on
// disk"), so a task outlives the process that started it (the `io.modelcontextprotocol/tasks` extension,
// "Task Polling": clients SHOULD persist task ids so that polling can resume after a crash or restart).
// A record names the call it belongs to (its conversation and call id), the server's task id, how to reach
// the task again (its revision, and for Streamable HTTP the session that created it), and which process
// follows it now (`ownerPid`): a record its closing owner released, or whose owner process is gone, is free
// to be resumed, once, under the lock.
import { join } from 'node:path';
import { z } from 'zod';
import { TASK_STATUSES } from '@shared/tasks';
import { JsonFileStore } from '../config/jsonFileStore';

/** The owner of a task no process follows: its Mooring closed (a crashed one's pid is simply gone). */
export const RELEASED = 0;

/** At most this many records are kept; the oldest go first. */
export const MAX_TASK_RECORDS = 200;

export const TaskRecordSchema = z
  .object({
    /** The call's key (shared/toolCall.ts callKey): `conversationId/callId`, or the call id alone. */
    key: z.string().min(1),
    callId: z.string().min(1),
    conversationId: z.string().optional(),
    /** Who asked, as in the audit log (a conversation, `cli`, an MCP client). */
    client: z.string().optional(),
    server: z.string().min(1),
    tool: z.string().min(1),
    modelName: z.string(),
    friendlyName: z.string(),
    taskId: z.string().min(1),
    era: z.enum(['2025-11-25', '2026-07-28']),
    /** The Streamable HTTP session the task was created in (mcp/sessionResume.ts). */
    httpSession: z.object({ sessionId: z.string(), protocolVersion: z.string() }).strict().optional(),
    status: z.enum(TASK_STATUSES),
    statusMessage: z.string().optional(),
    cancellable: z.boolean(),
    pollIntervalMs: z.number().positive().optional(),
    startedAt: z.number(),
    updatedAt: z.number(),
    /** The process following the task now; 0 once a closing Mooring let it go (RELEASED). */
    ownerPid: z.number().int(),
  })
  .strict();
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

const TasksFileSchema = z.object({ tasks: z.array(TaskRecordSchema).default([]) }).strict();
type TasksFile = z.infer<typeof TasksFileSchema>;

export class TaskRecords {
  private readonly store: JsonFileStore<TasksFile, z.input<typeof TasksFileSchema>>;

  constructor(home: string) {
    this.store = new JsonFileStore({
      file: join(home, 'tasks.json'),
      format: {
        schema: TasksFileSchema,
        empty: () => ({ tasks: [] }),
        fileHint: (f) =>
          `Fix ${f} by hand (Mooring has not changed it), or delete it: it only lists the tasks Mooring follows, which then are no longer resumed after a restart.`,
        changeHint: 'This is a bug in Mooring; please report it.',
      },
    });
  }

  get file(): string {
    return this.store.file;
  }

  async list(): Promise<TaskRecord[]> {
    return (await this.store.read()).tasks;
  }

  /** Adds or replaces the record of a call. */
  async put(record: TaskRecord): Promise<void> {
    await this.store.update((f) => ({
      tasks: [...f.tasks.filter((t) => t.key !== record.key), record].slice(-MAX_TASK_RECORDS),
    }));
  }

  async patch(key: string, fields: Partial<TaskRecord>): Promise<void> {
    await this.store.update((f) => ({
      tasks: f.tasks.map((t) => (t.key === key ? { ...t, ...fields, updatedAt: Date.now() } : t)),
    }));
  }

  async remove(key: string): Promise<void> {
    await this.store.update((f) => ({ tasks: f.tasks.filter((t) => t.key !== key) }));
  }

  /**
   * Makes this process the owner of every record whose owner process is gone, under the file's lock (so
   * two processes starting at once never both resume one task), and returns those records.
   */
  async claimOrphans(pid: number, isAlive: (pid: number) => boolean): Promise<TaskRecord[]> {
    const claimed: TaskRecord[] = [];
    await this.store.update((f) => ({
      tasks: f.tasks.map((t) => {
        if (t.ownerPid !== RELEASED && (t.ownerPid === pid || isAlive(t.ownerPid))) return t;
        const mine = { ...t, ownerPid: pid };
        claimed.push(mine);
        return mine;
      }),
    }));
    return claimed;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

/** Whether a process runs (signal 0 only checks). A pid Mooring cannot signal (EPERM) is alive. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
