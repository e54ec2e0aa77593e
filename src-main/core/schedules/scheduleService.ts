// `core.schedules` (docs/schedules.md, "Schedules"): every host's one door to scheduled prompts — the Schedules
// screen's router and `mooring schedule …` call these methods and nothing behind them. Schedules are kept in
// `schedules.json`, their runs in `schedule-runs.json`; the process that holds the lease (`own`) runs them on
// time, any process can run one now.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import {
  ScheduleInputSchema,
  type Schedule,
  type ScheduleEvent,
  type ScheduleInput,
  type ScheduleRow,
  type ScheduleRun,
  type SchedulerOwner,
  type SchedulerStatus,
  type ScheduleWhen,
} from '@shared/schedules';
import { MooringError } from '../errors';
import { RENEW_MS, SchedulerLease } from './schedulerLease';
import { scheduleFiles, schedulesStore } from './scheduleFiles';
import { ScheduleRuns, type RunPrompt } from './scheduleRuns';
import { Scheduler } from './scheduler';
import { atTime, checkWhen, nextTimes } from './scheduleTiming';

export interface ScheduleServiceDeps {
  home: string;
  /** Runs a schedule's prompt as a conversation under the unattended policy (the chat service). */
  runPrompt: RunPrompt;
  /** Throws a clear error for a model spec or a tool set that cannot be used. */
  checkModel: (spec: string) => void;
  checkToolSet: (name: string) => void;
  /** Where a look's failure goes (the host's log); it never stops the scheduler. */
  onError?: (err: unknown) => void;
}

export interface ScheduleServiceEvents {
  event: [ScheduleEvent];
}

export const PREVIEW_COUNT = 5;

function firstIssue(err: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const i = err.issues[0];
  return i ? `${i.path.map(String).join('.') || 'schedule'}: ${i.message}` : 'the schedule is not valid';
}

export class ScheduleService extends EventEmitter<ScheduleServiceEvents> {
  private readonly store: ReturnType<typeof schedulesStore>;
  private readonly runs: ScheduleRuns;
  private readonly scheduler: Scheduler;
  private readonly files: ReturnType<typeof scheduleFiles>;
  private lease?: SchedulerLease;
  private leaseTimer: NodeJS.Timeout | undefined;
  private owner: SchedulerOwner | null = null;
  private unwatch?: () => void;

  constructor(private readonly deps: ScheduleServiceDeps) {
    super();
    this.files = scheduleFiles(deps.home);
    this.store = schedulesStore(this.files.schedules);
    this.runs = new ScheduleRuns({ file: this.files.state, runPrompt: deps.runPrompt });
    this.scheduler = new Scheduler({
      schedules: () => this.all(),
      runs: this.runs,
      ...(deps.onError ? { onError: deps.onError } : {}),
    });
    this.runs.on('run', (run, schedule) => {
      this.emit('event', { type: 'run', run, scheduleName: schedule.name });
      if (run.outcome !== 'running' && run.outcome !== 'skipped' && schedule.notify)
        this.emit('event', {
          type: 'notify',
          title: `Schedule “${schedule.name}”: ${run.outcome === 'done' ? 'done' : run.outcome}`,
          body:
            run.refusals.length > 0
              ? `${run.refusals.length} tool call(s) refused. ${run.summary}`
              : run.summary,
          ...(run.conversationId ? { conversationId: run.conversationId } : {}),
        });
    });
  }

  /** The scheduler of this process, for tests that wait for its looks. */
  get loop(): Scheduler {
    return this.scheduler;
  }

  // ---- schedules ----------------------------------------------------------------------------------

  async all(): Promise<Schedule[]> {
    return (await this.store.read()).schedules;
  }

  /** By name (the CLI) or id (the screen); not_found names the schedules there are. */
  async get(nameOrId: string): Promise<Schedule> {
    const all = await this.all();
    const s = all.find((x) => x.id === nameOrId) ?? all.find((x) => x.name === nameOrId);
    if (s) return s;
    throw new MooringError(
      'not_found',
      `No schedule "${nameOrId}"`,
      all.length
        ? `The schedules are: ${all.map((x) => x.name).join(', ')}.`
        : 'Add one with mooring schedule add, or in the Schedules screen.',
    );
  }

  async list(): Promise<ScheduleRow[]> {
    const [schedules, state] = await Promise.all([this.all(), this.runs.state()]);
    const now = Date.now();
    return schedules.map((schedule) => {
      const own = state.runs.filter((r) => r.scheduleId === schedule.id);
      const lastRun = own.at(-1);
      const from = Math.max(now, state.handled[schedule.id] ?? schedule.createdAt);
      return {
        schedule,
        next: schedule.paused ? [] : nextTimes(schedule, from, PREVIEW_COUNT),
        ...(lastRun ? { lastRun } : {}),
        running: own.some((r) => r.outcome === 'running'),
      };
    });
  }

  /** The next five times a `when` gives (the form's preview); a clear error when it cannot be read. */
  preview(when: ScheduleWhen, createdAt = Date.now()): number[] {
    checkWhen(when);
    return nextTimes({ when, createdAt }, Date.now(), PREVIEW_COUNT);
  }

  async add(input: ScheduleInput): Promise<Schedule> {
    const parsed = await this.checked(input);
    const schedule: Schedule = { ...parsed, id: randomUUID(), createdAt: Date.now() };
    await this.store.update((f) => {
      if (f.schedules.some((s) => s.name === schedule.name))
        throw new MooringError(
          'usage',
          `A schedule named "${schedule.name}" already exists`,
          'Pick another name, or remove that schedule first.',
        );
      return { schedules: [...f.schedules, schedule] };
    });
    this.changed();
    return schedule;
  }

  /** Replaces a schedule's settings; a new time counts from now (times already past do not run). */
  async update(id: string, input: ScheduleInput): Promise<Schedule> {
    const parsed = await this.checked(input);
    let updated: Schedule | undefined;
    let retimed = false;
    await this.store.update((f) => {
      const old = f.schedules.find((s) => s.id === id);
      if (!old) throw new MooringError('not_found', `No schedule with id ${id}`, 'Reload the list.');
      if (f.schedules.some((s) => s.name === parsed.name && s.id !== id))
        throw new MooringError(
          'usage',
          `A schedule named "${parsed.name}" already exists`,
          'Pick another name.',
        );
      retimed = JSON.stringify(old.when) !== JSON.stringify(parsed.when);
      updated = { ...parsed, id, createdAt: retimed ? Date.now() : old.createdAt };
      return { schedules: f.schedules.map((s) => (s.id === id ? updated! : s)) };
    });
    if (retimed) await this.runs.setHandled(id, Date.now());
    this.changed();
    return updated!;
  }

  async remove(nameOrId: string): Promise<Schedule> {
    const s = await this.get(nameOrId);
    this.runs.cancel(s.id);
    await this.store.update((f) => ({ schedules: f.schedules.filter((x) => x.id !== s.id) }));
    await this.runs.store.update((st) => {
      const { [s.id]: _gone, ...handled } = st.handled;
      return { handled, runs: st.runs.filter((r) => r.scheduleId !== s.id) };
    });
    this.changed();
    return s;
  }

  /** Pauses or resumes; a resumed schedule does not run the times that passed while it was paused. */
  async setPaused(nameOrId: string, paused: boolean): Promise<Schedule> {
    const s = await this.get(nameOrId);
    await this.store.update((f) => ({
      schedules: f.schedules.map((x) => (x.id === s.id ? { ...x, paused } : x)),
    }));
    if (!paused) await this.runs.setHandled(s.id, Date.now());
    this.changed();
    return { ...s, paused };
  }

  /** A schedule's runs, newest first. */
  async history(nameOrId: string): Promise<ScheduleRun[]> {
    const s = await this.get(nameOrId);
    return (await this.runs.state()).runs.filter((r) => r.scheduleId === s.id).reverse();
  }

  // ---- runs ---------------------------------------------------------------------------------------

  /**
   * Runs it now, whatever its time (paused too): claimed like a scheduled run, so it never overlaps one.
   * `wait`: resolves when the run ended (the CLI); otherwise once it started (the screen).
   */
  async runNow(nameOrId: string, opts: { wait?: boolean } = {}): Promise<ScheduleRun> {
    const s = await this.get(nameOrId);
    const run = await this.runs.claim(s, { slot: Date.now(), trigger: 'manual' });
    if (!run) throw new MooringError('internal', 'The run could not be claimed.');
    const done = this.runs.execute(s, run);
    if (opts.wait) return done;
    void done.catch((err: unknown) => this.deps.onError?.(err));
    return run;
  }

  /** Cancels the schedule's run in this process. */
  async cancel(nameOrId: string): Promise<boolean> {
    return this.runs.cancel((await this.get(nameOrId)).id);
  }

  // ---- who runs them ------------------------------------------------------------------------------

  /**
   * This process runs schedules while it holds the lease (`kind` says what it is: `mooring web`, …); it
   * looks for the lease every RENEW_MS and takes it over when its owner is gone.
   */
  async own(kind: string): Promise<void> {
    if (this.lease) return;
    this.lease = new SchedulerLease({ file: this.files.owner, kind });
    await this.renewLease();
    this.unwatch = await this.store.watch(() => this.scheduler.poke()).catch(() => undefined);
  }

  async status(): Promise<SchedulerStatus> {
    const lease = this.lease ?? new SchedulerLease({ file: this.files.owner, kind: 'unknown' });
    const owner = await lease.owner();
    return { owner, mine: lease.isMine(owner) };
  }

  async close(): Promise<void> {
    clearTimeout(this.leaseTimer);
    this.leaseTimer = undefined;
    this.unwatch?.();
    await this.scheduler.stop();
    this.runs.cancelAll();
    await this.scheduler.idle();
    if (this.lease) {
      await this.lease.release();
      await this.lease.close();
      this.lease = undefined;
    }
    await this.store.close();
    await this.runs.close();
  }

  private async renewLease(): Promise<void> {
    const lease = this.lease;
    if (!lease) return;
    try {
      const owner = await lease.claim();
      const mine = lease.isMine(owner);
      if (mine) this.scheduler.start();
      else if (this.scheduler.started) await this.scheduler.stop();
      if (JSON.stringify([owner.pid, owner.host]) !== JSON.stringify([this.owner?.pid, this.owner?.host]))
        this.emit('event', { type: 'owner', status: { owner, mine } });
      this.owner = owner;
    } catch (err) {
      this.deps.onError?.(err);
    }
    if (this.lease !== lease) return;
    this.leaseTimer = setTimeout(() => void this.renewLease(), RENEW_MS);
    this.leaseTimer.unref?.();
  }

  private changed(): void {
    this.emit('event', { type: 'changed' });
    this.scheduler.poke();
  }

  private async checked(input: ScheduleInput): Promise<Omit<Schedule, 'id' | 'createdAt'>> {
    const r = ScheduleInputSchema.safeParse(input);
    if (!r.success)
      throw new MooringError(
        'usage',
        `The schedule is not valid: ${firstIssue(r.error)}`,
        'Correct it and try again.',
      );
    const s = r.data;
    checkWhen(s.when);
    if (s.when.kind === 'at' && atTime(s.when) <= Date.now())
      throw new MooringError('usage', `${s.when.at} has already passed`, 'Pick a time in the future.');
    this.deps.checkModel(s.model);
    if (s.toolSet) this.deps.checkToolSet(s.toolSet);
    if (s.workspace) await checkFolder(s.workspace);
    return s;
  }
}

async function checkFolder(dir: string): Promise<void> {
  const ok = isAbsolute(dir) && (await stat(dir).catch(() => undefined))?.isDirectory();
  if (!ok)
    throw new MooringError(
      'usage',
      `The project folder ${dir} is not an existing folder`,
      'Give the full path of an existing folder, or none.',
    );
}
