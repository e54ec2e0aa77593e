// Scheduled prompts (docs/schedules.md, "Schedules"): what a schedule is, what one run of it left behind, and
// who runs schedules now. Pure zod, so the Schedules screen validates its form with the schemas the core
// writes `schedules.json` with.
import { z } from 'zod';

/** A name the CLI takes as an argument: letters, digits, spaces and `._-`, not starting with a space. */
export const SCHEDULE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

/** `provider:model`, the same spec as the chat's model picker. */
const ModelSpecSchema = z
  .string()
  .regex(/^[a-z]+:.+$/, 'must look like provider:model, e.g. ollama:llama3.2 or openai:gpt-4o');

const TimeZoneSchema = z
  .string()
  .min(1)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin or America/New_York');

/** When a schedule runs: a cron expression, a fixed interval, or once. */
export const ScheduleWhenSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('cron'),
      /** Five fields (minute hour day-of-month month day-of-week), or six with seconds first. */
      expr: z.string().min(1, 'must not be empty'),
      /** Where the expression's hours are read; absent: the machine's own zone. */
      timezone: TimeZoneSchema.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('every'),
      /** Milliseconds between runs, counted from when the schedule was made (at least a minute). */
      everyMs: z
        .number()
        .int()
        .min(60_000, 'must be at least one minute')
        .max(366 * 24 * 3_600_000, 'must be at most a year'),
    })
    .strict(),
  z
    .object({
      kind: z.literal('at'),
      /** An ISO 8601 date and time; without an offset it is read in `timezone` (or the machine's zone). */
      at: z.string().min(1, 'must not be empty'),
      timezone: TimeZoneSchema.optional(),
    })
    .strict(),
]);
export type ScheduleWhen = z.infer<typeof ScheduleWhenSchema>;

/** What happens to a time that passed while no Mooring process ran schedules. */
export const MissedRunSchema = z.enum(['run-once', 'skip']);
export type MissedRun = z.infer<typeof MissedRunSchema>;

export const DEFAULT_RUN_LIMIT_S = 600;

/** What a person sets: the form, `mooring schedule add`. */
export const ScheduleInputSchema = z
  .object({
    name: z
      .string()
      .regex(SCHEDULE_NAME, 'must be 1–64 letters, digits, spaces, dots, dashes or underscores'),
    prompt: z.string().trim().min(1, 'must not be empty').max(20_000, 'must be at most 20,000 characters'),
    model: ModelSpecSchema,
    /** A named tool set (settings.toolSets); absent: every enabled tool. */
    toolSet: z.string().min(1).optional(),
    /** The model may write programs over the tools (docs/code-mode.md); each call under the same policy. */
    codeMode: z.boolean().optional(),
    /**
     * Tools that may run in this schedule although they are not marked read-only, by model name
     * (`mcp__server__tool`); a trailing `*` matches a prefix. Nobody is there to approve anything else.
     */
    allow: z.array(z.string().min(1)).default([]),
    /** The project folder (the MCP root, its approved servers); null: none. */
    workspace: z.string().min(1).nullable().default(null),
    when: ScheduleWhenSchema,
    missed: MissedRunSchema.default('run-once'),
    /** A run still going after this many seconds is cancelled. */
    timeLimitS: z
      .number()
      .int()
      .min(10, 'must be at least 10 seconds')
      .max(24 * 3600, 'must be at most a day')
      .default(DEFAULT_RUN_LIMIT_S),
    /** Each run's outcome as a notification (an OS notification in the desktop app). */
    notify: z.boolean().default(true),
    paused: z.boolean().default(false),
  })
  .strict();
export type ScheduleInput = z.input<typeof ScheduleInputSchema>;

export const ScheduleSchema = ScheduleInputSchema.extend({
  id: z.string().min(1),
  /** Epoch ms; an interval counts from here. */
  createdAt: z.number().int(),
}).strict();
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleFileSchema = z.object({ schedules: z.array(ScheduleSchema).default([]) }).strict();

export const RUN_OUTCOMES = ['running', 'done', 'failed', 'timed-out', 'cancelled', 'skipped'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** One run of a schedule, or one time it skipped. */
export const ScheduleRunSchema = z
  .object({
    id: z.string().min(1),
    scheduleId: z.string().min(1),
    /** The time the run was for (the cron slot), or when `run now` was pressed. */
    slot: z.number().int(),
    startedAt: z.number().int(),
    endedAt: z.number().int().optional(),
    /** How it started: on time, once for the missed times, by hand. */
    trigger: z.enum(['schedule', 'missed', 'manual']),
    outcome: z.enum(RUN_OUTCOMES),
    /** The conversation the run wrote (open, continue, delete it like any other). */
    conversationId: z.string().optional(),
    /** The first lines of the model's last answer, or why the run failed or was skipped. */
    summary: z.string().max(2_000).default(''),
    /** Calls the unattended policy (or the safety gate) refused, with why. */
    refusals: z.array(z.object({ tool: z.string(), reason: z.string() }).strict()).default([]),
    /** The process that runs it, while it runs: a run whose process died is ended as failed. */
    pid: z.number().int().optional(),
  })
  .strict();
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

export const ScheduleStateSchema = z
  .object({
    /** Per schedule: the latest time slot handled (run or skipped); the next one comes after it. */
    handled: z.record(z.string(), z.number().int()).default({}),
    /** Newest last; at most `RUN_HISTORY` per schedule. */
    runs: z.array(ScheduleRunSchema).default([]),
  })
  .strict();
export type ScheduleState = z.infer<typeof ScheduleStateSchema>;

export const RUN_HISTORY = 50;

/** Which process runs the schedules of this home now. */
export const SchedulerOwnerSchema = z
  .object({
    pid: z.number().int(),
    host: z.string(),
    /** What the process is: the desktop app, `mooring web`, `mooring serve`. */
    kind: z.string(),
    since: z.number().int(),
    /** Renewed while the owner lives; a lease not renewed in time is taken over. */
    renewedAt: z.number().int(),
  })
  .strict();
export type SchedulerOwner = z.infer<typeof SchedulerOwnerSchema>;

/** One schedule as the Schedules screen and `mooring schedule list` show it. */
export interface ScheduleRow {
  schedule: Schedule;
  /** The next five times it will run (none when paused, or a one-off that ran). */
  next: number[];
  lastRun?: ScheduleRun;
  running: boolean;
}

/** What the Schedules screen's header says about who runs schedules. */
export interface SchedulerStatus {
  owner: SchedulerOwner | null;
  /** This process runs them. */
  mine: boolean;
}

/** What the core tells hosts about runs: the desktop shell turns `notify` into an OS notification. */
export type ScheduleEvent =
  | { type: 'run'; run: ScheduleRun; scheduleName: string }
  | { type: 'changed' }
  | { type: 'owner'; status: SchedulerStatus }
  | { type: 'notify'; title: string; body: string; conversationId?: string };
