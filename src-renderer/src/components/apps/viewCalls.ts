// A view's tool call by ticket (src-main/core/apps/viewCallTickets.ts): `apps.callTool` answers at once, the
// live stream's `appCallDone` says the outcome is ready, and the view's waiter takes it (`apps.takeCall`), a
// request that never waits. So no number of calls waiting for approval holds a connection to the host.
import type { CallToolResult } from '@modelcontextprotocol/client';

type News = { ticket: string; viewId: string } | 'reconnected';
const listeners = new Set<(n: News) => void>();

/** What the live stream tells the views' waiters (api/useLiveEvents.ts). */
export const viewCallNews = {
  done(d: { ticket: string; viewId: string }): void {
    for (const l of [...listeners]) l(d);
  },
  /** The stream (re)connected or fell behind: a `done` may have been missed, so every waiter asks. */
  reconnected(): void {
    for (const l of [...listeners]) l('reconnected');
  },
};

export type TakeCall = (
  ticket: string,
) => Promise<{ done: false } | { done: true; result: unknown } | { done: true; error: string }>;

/** Tickets whose `done` came before their `callTool` answered, kept at most (the oldest go first). */
const MAX_EARLY = 100;

/** One view's calls waiting for their outcome. */
export class ViewCallWaiter {
  private readonly waiting = new Map<
    string,
    { resolve: (r: CallToolResult) => void; reject: (e: Error) => void }
  >();
  private readonly early = new Set<string>();
  /** Tickets being taken now, and whether news came meanwhile (then it is asked again). */
  private readonly fetching = new Map<string, boolean>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly viewId: string,
    private readonly take: TakeCall,
  ) {
    const listener = (n: News) => {
      if (n === 'reconnected') for (const t of [...this.waiting.keys()]) void this.fetch(t);
      else if (n.viewId === this.viewId) this.done(n.ticket);
    };
    listeners.add(listener);
    this.unsubscribe = () => listeners.delete(listener);
  }

  /** The outcome of the call a ticket names: the result, or a rejection with the reason. */
  wait(ticket: string): Promise<CallToolResult> {
    const promise = new Promise<CallToolResult>((resolve, reject) =>
      this.waiting.set(ticket, { resolve, reject }),
    );
    if (this.early.delete(ticket)) void this.fetch(ticket);
    return promise;
  }

  /** The view closed: its calls' outcomes are no longer wanted. */
  dispose(): void {
    this.unsubscribe();
    for (const w of this.waiting.values()) w.reject(new Error('The view was closed.'));
    this.waiting.clear();
  }

  private done(ticket: string): void {
    if (this.waiting.has(ticket)) return void this.fetch(ticket);
    this.early.add(ticket);
    if (this.early.size > MAX_EARLY) this.early.delete(this.early.values().next().value!);
  }

  private async fetch(ticket: string): Promise<void> {
    const w = this.waiting.get(ticket);
    if (!w) return;
    if (this.fetching.has(ticket)) return void this.fetching.set(ticket, true);
    this.fetching.set(ticket, false);
    try {
      const r = await this.take(ticket);
      const again = this.fetching.get(ticket);
      this.fetching.delete(ticket);
      if (!r.done) return again ? this.fetch(ticket) : undefined;
      this.waiting.delete(ticket);
      if ('error' in r) w.reject(new Error(r.error));
      else w.resolve(r.result as CallToolResult);
    } catch (err) {
      this.fetching.delete(ticket);
      if (!this.waiting.delete(ticket)) return;
      w.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
