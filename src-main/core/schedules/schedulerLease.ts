// One process runs the schedules of a home (docs/schedules.md, "Schedules"): the app, `mooring web` and
// `mooring serve` each ask for the lease in `run/scheduler.json`; the first gets it and renews it every
// RENEW_MS, the others look again as often and take it over when the owner's process is gone or its lease
// was not renewed for LEASE_MS (a process that hangs, or a home shared with another machine). Every one of
// them can say who owns it. The file is changed under its cross-process lock, so two processes never both
// believe they own it after one look.
import { hostname } from 'node:os';
import type { SchedulerOwner } from '@shared/schedules';
import { ownerStore, processAlive } from './scheduleFiles';

export const LEASE_MS = 30_000;
export const RENEW_MS = 10_000;

export interface LeaseOptions {
  file: string;
  /** What this process is, as the others show it: `the desktop app`, `mooring web`, `mooring serve`. */
  kind: string;
  leaseMs?: number;
}

export class SchedulerLease {
  private readonly store: ReturnType<typeof ownerStore>;
  private readonly leaseMs: number;
  private readonly me: { pid: number; host: string };

  constructor(private readonly opts: LeaseOptions) {
    this.store = ownerStore(opts.file);
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
    this.me = { pid: process.pid, host: hostname() };
  }

  isMine(owner: SchedulerOwner | null): boolean {
    return owner !== null && owner.pid === this.me.pid && owner.host === this.me.host;
  }

  /** Whether a lease still holds: renewed in time and, on this machine, its process alive. */
  private holds(owner: SchedulerOwner, now: number): boolean {
    return now - owner.renewedAt <= this.leaseMs && processAlive(owner.pid, owner.host);
  }

  /** Takes the lease when it is free, lapsed or already ours (renewing it); returns the owner after. */
  async claim(): Promise<SchedulerOwner> {
    const file = await this.store.update((f) => {
      const now = Date.now();
      const owner = f.owner;
      if (owner && !this.isMine(owner) && this.holds(owner, now)) return f;
      return {
        owner: {
          ...this.me,
          kind: this.opts.kind,
          since: owner && this.isMine(owner) ? owner.since : now,
          renewedAt: now,
        },
      };
    });
    return file.owner!;
  }

  /** The owner now, or null when none holds the lease. */
  async owner(): Promise<SchedulerOwner | null> {
    const { owner } = await this.store.read().catch(() => ({ owner: null }));
    return owner && this.holds(owner, Date.now()) ? owner : null;
  }

  /** Gives the lease up (at close), so another process takes over at its next look. */
  async release(): Promise<void> {
    await this.store.update((f) => (this.isMine(f.owner) ? { owner: null } : f)).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
