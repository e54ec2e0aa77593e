// The schedules' files in the home (docs/data-on-disk.md, "Data on disk"), each a JsonFileStore (validated,
// atomic, locked across processes): `schedules.json` (what the user set), `schedule-runs.json` (the slots
// handled and each schedule's last runs; a run is claimed here under the lock, so two processes never run
// one schedule at once) and `run/scheduler.json` (the lease of the process that runs them).
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  RUN_HISTORY,
  ScheduleFileSchema,
  SchedulerOwnerSchema,
  ScheduleStateSchema,
  type ScheduleRun,
  type ScheduleState,
  type SchedulerOwner,
} from '@shared/schedules';
import { JsonFileStore } from '../config/jsonFileStore';

export const scheduleFiles = (home: string) => ({
  schedules: join(home, 'schedules.json'),
  state: join(home, 'schedule-runs.json'),
  owner: join(home, 'run', 'scheduler.json'),
});

export type ScheduleFile = z.infer<typeof ScheduleFileSchema>;

export const schedulesStore = (file: string) =>
  new JsonFileStore<ScheduleFile, z.input<typeof ScheduleFileSchema>>({
    file,
    format: {
      schema: ScheduleFileSchema,
      empty: () => ({ schedules: [] }),
      fileHint: (f) =>
        `Fix ${f} by hand (Mooring has not changed it), or delete it to start without schedules.`,
      changeHint: 'Correct the schedule named above and try again.',
    },
  });

export const scheduleStateStore = (file: string) =>
  new JsonFileStore<ScheduleState, z.input<typeof ScheduleStateSchema>>({
    file,
    format: {
      schema: ScheduleStateSchema,
      empty: () => ({ handled: {}, runs: [] }),
      fileHint: (f) =>
        `Delete ${f} to start the run history afresh (the schedules themselves are in schedules.json).`,
      changeHint: 'This is a bug in Mooring: the run record was not valid.',
    },
  });

const OwnerFileSchema = z.object({ owner: SchedulerOwnerSchema.nullable().default(null) }).strict();

export const ownerStore = (file: string) =>
  new JsonFileStore<z.infer<typeof OwnerFileSchema>, z.input<typeof OwnerFileSchema>>({
    file,
    format: {
      schema: OwnerFileSchema,
      empty: () => ({ owner: null }),
      fileHint: (f) => `Delete ${f}: it only says which Mooring process runs the schedules.`,
      changeHint: 'This is a bug in Mooring: the scheduler lease was not valid.',
    },
  });

/** Keeps the newest RUN_HISTORY runs of each schedule (and every run still going). */
export function trimRuns(runs: ScheduleRun[]): ScheduleRun[] {
  const count = new Map<string, number>();
  const kept: ScheduleRun[] = [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i]!;
    const n = (count.get(r.scheduleId) ?? 0) + 1;
    count.set(r.scheduleId, n);
    if (n <= RUN_HISTORY || r.outcome === 'running') kept.push(r);
  }
  return kept.reverse();
}

/** Whether the process `pid` on this machine is still there (a lease from another machine counts as alive). */
export function processAlive(pid: number, host = hostname()): boolean {
  if (host !== hostname()) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type { SchedulerOwner };
