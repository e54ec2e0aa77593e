// When a schedule runs (docs/schedules.md, "Schedules"): cron expressions and one-off times are read by croner
// (time zones and daylight-saving gaps included; docs/decisions/004-scheduled-prompts.md says why that
// library), intervals are counted here from the schedule's creation, so an interval's times do not drift with
// how long each run took.
import { Cron } from 'croner';
import type { Schedule, ScheduleWhen } from '@shared/schedules';
import { DURATION_HINT, durationMs } from '@shared/scheduleWords';
import { MooringError } from '../errors';

/** `90s`, `15m`, `2h`, `1d`, `1h30m` → milliseconds, or a clear `usage` error. */
export function parseDuration(text: string): number {
  const ms = durationMs(text);
  if (ms === undefined) throw new MooringError('usage', `"${text}" is not a duration`, DURATION_HINT);
  return ms;
}

function cronOf(when: Extract<ScheduleWhen, { kind: 'cron' | 'at' }>): Cron {
  const pattern = when.kind === 'cron' ? when.expr : when.at;
  try {
    return new Cron(pattern, { paused: true, ...(when.timezone ? { timezone: when.timezone } : {}) });
  } catch (err) {
    throw new MooringError(
      'usage',
      when.kind === 'cron'
        ? `"${when.expr}" is not a cron expression (${(err as Error).message})`
        : `"${when.at}" is not a date and time (${(err as Error).message})`,
      when.kind === 'cron'
        ? 'Five fields: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5" for 9:00 on weekdays.'
        : 'Use an ISO 8601 time such as 2026-05-01T09:00 (read in --timezone, else this machine’s zone), or add an offset: 2026-05-01T09:00+02:00.',
    );
  }
}

/** Throws a clear `usage` error when the expression or time cannot be read. */
export function checkWhen(when: ScheduleWhen): void {
  if (when.kind === 'every') return;
  const cron = cronOf(when);
  if (when.kind === 'cron' && cron.nextRun(new Date()) === null)
    throw new MooringError('usage', `"${when.expr}" never runs`, 'Check the day and month fields.');
  if (when.kind === 'at') atTime(when);
}

/** The instant a one-off schedule is for. */
export function atTime(when: Extract<ScheduleWhen, { kind: 'at' }>): number {
  const next = cronOf(when).nextRun(new Date(0));
  if (!next) throw new MooringError('usage', `"${when.at}" is not a date and time`, 'e.g. 2026-05-01T09:00');
  return next.getTime();
}

/** Up to `n` run times strictly after `after` (epoch ms), soonest first. */
export function nextTimes(
  schedule: Pick<Schedule, 'when' | 'createdAt'>,
  after: number,
  n: number,
): number[] {
  const { when } = schedule;
  if (n <= 0) return [];
  switch (when.kind) {
    case 'cron':
      return cronOf(when)
        .nextRuns(n, new Date(after))
        .map((d) => d.getTime());
    case 'every': {
      const first = Math.max(0, Math.floor((after - schedule.createdAt) / when.everyMs) + 1);
      return Array.from({ length: n }, (_, i) => schedule.createdAt + (first + i) * when.everyMs);
    }
    case 'at': {
      const t = atTime(when);
      return t > after ? [t] : [];
    }
  }
}

/** The latest run time at or before `at`, after `after` (the slot a late scheduler is behind on), if any. */
export function latestDue(
  schedule: Pick<Schedule, 'when' | 'createdAt'>,
  opts: { after: number; at: number },
): number | undefined {
  const first = nextTimes(schedule, opts.after, 1)[0];
  if (first === undefined || first > opts.at) return undefined;
  const { when } = schedule;
  if (when.kind === 'every')
    return schedule.createdAt + Math.floor((opts.at - schedule.createdAt) / when.everyMs) * when.everyMs;
  if (when.kind === 'at') return first;
  // The last cron slot at or before `at`: croner counts backwards from just after it.
  const prev = cronOf(when)
    .previousRuns(1, new Date(opts.at + 1))[0]
    ?.getTime();
  return prev !== undefined && prev > opts.after ? prev : first;
}
