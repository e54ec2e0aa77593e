// How schedules are written and said (docs/schedules.md, "Schedules"): durations (`15m`, `1h30m`) and a
// schedule's time in words, the same in `mooring schedule` and the Schedules screen. Pure, for both.
import type { ScheduleWhen } from './schedules';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const DURATION_HINT = 'Use a number and a unit: 90s, 15m, 2h, 1d, or combined like 1h30m.';

/** `90s`, `15m`, `2h`, `1d`, `1h30m` → milliseconds; undefined when it is not a duration. */
export function durationMs(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  const parts = [...t.matchAll(/(\d+)\s*([smhd])/g)];
  if (!t || !parts.length || parts.map((p) => p[0]).join('') !== t.replace(/\s+/g, '')) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0);
}

/** A duration the way the CLI and the screen show it: `15m`, `1h30m`, `1d`. */
export function formatDuration(ms: number): string {
  let rest = Math.round(ms / 1000);
  let out = '';
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out || '0s';
}

/** `cron 0 9 * * 1-5 (Europe/Berlin)`, `every 15m`, `at 2026-05-01T09:00`. */
export function describeWhen(when: ScheduleWhen): string {
  switch (when.kind) {
    case 'cron':
      return `cron ${when.expr}${when.timezone ? ` (${when.timezone})` : ''}`;
    case 'every':
      return `every ${formatDuration(when.everyMs)}`;
    case 'at':
      return `at ${when.at}${when.timezone ? ` (${when.timezone})` : ''}`;
  }
}
