// One writer at a time per file in the home, across every Mooring process (docs/data-on-disk.md, "Data on
// disk"): the app, the CLI and `mooring serve` share one home, so a read-modify-write must hold a lock
// that the other processes see. Two layers:
// - in this process, one promise queue per file, so two store instances on one file wait for each other
//   without touching the disk;
// - across processes, a lock directory `<file>.lock` (proper-lockfile: mkdir is atomic on every local
//   file system). The holder refreshes its mtime; a lock nobody refreshed for `staleMs` belonged to a
//   process that died (a crash, a SIGKILL) and is taken over, so a dead writer blocks the next one for
//   that long at most. Why this library and these numbers: docs/decisions/001-cross-process-file-lock.md.
import { dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { MooringError } from '../errors';
import { ensurePrivateDir } from './atomicJson';

export interface FileLockOptions {
  /** A lock not refreshed for this long is abandoned and taken over. Default 10 s (proper-lockfile's minimum is 2 s). */
  staleMs?: number;
  /** How long to wait for a live holder before failing with a clear error. Default 60 s. */
  waitMs?: number;
}

export const DEFAULT_STALE_MS = 10_000;
export const DEFAULT_WAIT_MS = 60_000;

/** Handed to the job: `assertHeld` throws if the lock was lost (this process stalled past `staleMs`). */
export interface HeldLock {
  assertHeld(): void;
}

export const lockPathOf = (file: string) => `${resolve(file)}.lock`;

// One queue per file in this process, shared by every store on that file.
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `job` while holding the file's lock, after every job queued before it in this process. The job
 * should be short (read, change, write): other processes wait for it. A job must not take the same
 * file's lock again (it would wait for itself).
 */
export function withFileLock<T>(
  file: string,
  job: (lock: HeldLock) => Promise<T>,
  opts: FileLockOptions = {},
): Promise<T> {
  const key = resolve(file);
  const run = (queues.get(key) ?? Promise.resolve()).then(() => underLock(key, job, opts));
  // The queue goes on after a failed job; the caller still sees the failure.
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/** Resolves once every job queued so far on this file in this process has finished. */
export async function settled(file: string): Promise<void> {
  await queues.get(resolve(file));
}

async function underLock<T>(file: string, job: (lock: HeldLock) => Promise<T>, opts: FileLockOptions) {
  let lost: Error | undefined;
  const release = await acquire(file, opts, (err) => (lost = err));
  try {
    return await job({
      assertHeld: () => {
        if (lost)
          throw new MooringError(
            'timeout',
            `Mooring lost the lock on ${file} while changing it (this process stalled for more than ${Math.round((opts.staleMs ?? DEFAULT_STALE_MS) / 1000)} s); nothing was written.`,
            'Try again.',
            { cause: lost },
          );
      },
    });
  } finally {
    if (!lost) await release().catch(() => undefined);
  }
}

async function acquire(
  file: string,
  opts: FileLockOptions,
  onCompromised: (err: Error) => void,
): Promise<() => Promise<void>> {
  await ensurePrivateDir(dirname(file));
  const staleMs = opts.staleMs ?? DEFAULT_STALE_MS;
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_WAIT_MS);
  let delay = 5;
  for (;;) {
    try {
      // realpath: false, because the file itself may not exist yet (its lock still can).
      return await lockfile.lock(file, { realpath: false, stale: staleMs, retries: 0, onCompromised });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw cannotLock(file, err);
      if (Date.now() >= deadline) throw lockTimeout(file, opts.waitMs ?? DEFAULT_WAIT_MS, err);
    }
    // Jittered backoff: thirty processes started together must not retry in lock step.
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 1.5, 200);
  }
}

function lockTimeout(file: string, waitMs: number, cause: unknown): MooringError {
  const lock = lockPathOf(file);
  return new MooringError(
    'timeout',
    `Another Mooring process has been changing ${file} for more than ${Math.round(waitMs / 1000)} s (it holds ${lock}); nothing was written.`,
    `Try again in a moment. If no Mooring process is running (the app, the CLI, "mooring serve"), delete the folder ${lock} and try again.`,
    { cause },
  );
}

function cannotLock(file: string, cause: unknown): MooringError {
  return new MooringError(
    'config_invalid',
    `Cannot lock ${file} (${(cause as Error).message}); nothing was written.`,
    `Check that ${dirname(file)} is a writable folder, or set MOORING_HOME to another directory.`,
    { cause },
  );
}
