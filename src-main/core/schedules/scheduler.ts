// The scheduler of the process that owns the lease (docs/schedules.md, "Schedules"): one timer for the soonest
// time of any schedule, never longer than a minute (another process may have added a schedule; a laptop may
// have slept). At each look, every schedule whose time came is claimed and run; a time more than
// MISSED_AFTER_MS late was missed (no Mooring process ran, the machine slept), and the schedule says whether
// that runs once now or is skipped. A time that comes while the schedule's previous run still goes is
// skipped (scheduleRuns.ts), so runs of one schedule never overlap.
import { EventEmitter } from 'node:events';
import type { Schedule, ScheduleRun } from '@shared/schedules';
import type { ScheduleRuns } from './scheduleRuns';
import { latestDue, nextTimes } from './scheduleTiming';

export const MISSED_AFTER_MS = 60_000;
export const MAX_SLEEP_MS = 60_000;
/** Missed times are counted up to this many (for the skipped run's summary). */
const COUNT_CAP = 1_000;

export interface SchedulerDeps {
  schedules: () => Promise<Schedule[]>;
  runs: ScheduleRuns;
  onError?: (err: unknown) => void;
}

export interface SchedulerEvents {
  /** One look is over: when it looked and when it looks next. */
  tick: [{ at: number; nextAt: number }];
}

/** How many run times fall in (after, upTo]. */
export function countTimes(schedule: Schedule, after: number, upTo: number): number {
  let n = 0;
  let from = after;
  while (n < COUNT_CAP) {
    const batch = nextTimes(schedule, from, 100).filter((t) => t <= upTo);
    n += batch.length;
    if (batch.length < 100) break;
    from = batch[batch.length - 1]!;
  }
  return Math.min(n, COUNT_CAP);
}

export class Scheduler extends EventEmitter<SchedulerEvents> {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> = Promise.resolve();
  private running = false;
  private readonly executing = new Set<Promise<ScheduleRun>>();

  constructor(private readonly deps: SchedulerDeps) {
    super();
  }

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poke();
  }

  /** Looks now (a schedule was added, edited or resumed in this process). */
  poke(): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.looking = this.looking.then(() => (this.running ? this.look() : undefined));
  }

  /** Stops looking; runs in progress go on (the service cancels them when the core closes). */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.looking;
  }

  /** Resolves when every run this scheduler started has ended. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.executing]);
  }

  private async look(): Promise<void> {
    const now = Date.now();
    let nextAt = now + MAX_SLEEP_MS;
    try {
      const [schedules, state] = await Promise.all([this.deps.schedules(), this.deps.runs.state()]);
      for (const s of schedules) {
        if (s.paused) continue;
        const handled = state.handled[s.id] ?? s.createdAt;
        const due = latestDue(s, { after: handled, at: now });
        if (due !== undefined) await this.handle(s, { due, handled, now });
        const next = nextTimes(s, Math.max(now, due ?? handled), 1)[0];
        if (next !== undefined) nextAt = Math.min(nextAt, next);
      }
    } catch (err) {
      this.deps.onError?.(err);
    }
    if (!this.running) return;
    // Two pokes in a row queue two looks: the later one's timer replaces the earlier one's.
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poke(), Math.max(0, nextAt - Date.now()));
    this.timer.unref?.();
    this.emit('tick', { at: now, nextAt });
  }

  private async handle(s: Schedule, o: { due: number; handled: number; now: number }): Promise<void> {
    const late = o.now - o.due > MISSED_AFTER_MS;
    if (late && s.missed === 'skip') {
      await this.deps.runs.skipMissed(s, {
        slot: o.due,
        count: countTimes(s, o.handled, o.due),
        handled: o.due,
      });
      return;
    }
    const run = await this.deps.runs.claim(s, {
      slot: o.due,
      trigger: late ? 'missed' : 'schedule',
      handled: o.due,
    });
    if (!run) return;
    const p = this.deps.runs.execute(s, run);
    this.executing.add(p);
    void p.catch((err: unknown) => this.deps.onError?.(err)).finally(() => this.executing.delete(p));
  }
}
