// A view's tool call, detached from the request that started it (docs/mcp-apps.md, "MCP Apps", Act): the call may wait
// for the person's approval for minutes, and in browser mode a request held that long takes one of the
// browser's six HTTP/1.1 connections to the host; a view that polls would hold them all, and then the answer
// to the approval could not reach the host (src-main/core/api/eventStream.ts says the same of the streams).
// So `start` answers at once with a ticket, the call runs here, `done` says on the one live stream that its
// outcome is ready, and `take` hands it over (once) without waiting.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MooringError } from '../errors';

/** What a ticket's call came to: the tool's result, or why the view's request failed (a JSON-RPC error). */
export type ViewCallOutcome = { result: CallToolResult } | { error: string };

export type ViewCallTake = { done: false } | ({ done: true } & ViewCallOutcome);

interface Ticket {
  viewId: string;
  outcome?: ViewCallOutcome;
  /** When the outcome arrived: one nobody takes is dropped after OUTCOME_KEEP_MS. */
  endedAt?: number;
}

/** Calls in flight or ended and not yet taken, at most; past it the oldest ended ones go first. */
const MAX_TICKETS = 1000;
/** How long an outcome nobody took (its page closed) is kept. */
const OUTCOME_KEEP_MS = 10 * 60_000;

export interface ViewCallTicketsEvents {
  /** A ticket's outcome is ready to take. */
  done: [{ ticket: string; viewId: string }];
}

export class ViewCallTickets extends EventEmitter<ViewCallTicketsEvents> {
  private readonly tickets = new Map<string, Ticket>();

  constructor(private readonly now: () => number = Date.now) {
    super();
  }

  /** Runs `call` for a view and answers at once with its ticket. */
  start(viewId: string, call: () => Promise<CallToolResult>): string {
    this.prune();
    const ticket = randomUUID();
    const entry: Ticket = { viewId };
    this.tickets.set(ticket, entry);
    const end = (outcome: ViewCallOutcome) => {
      if (!this.tickets.has(ticket)) return;
      entry.outcome = outcome;
      entry.endedAt = this.now();
      this.emit('done', { ticket, viewId });
    };
    call().then(
      (result) => end({ result }),
      (err: unknown) => end({ error: err instanceof Error ? err.message : String(err) }),
    );
    return ticket;
  }

  /** A ticket's outcome, handed over once; `done: false` while the call still runs. Never waits. */
  take(viewId: string, ticket: string): ViewCallTake {
    const entry = this.tickets.get(ticket);
    if (!entry || entry.viewId !== viewId)
      throw new MooringError(
        'not_found',
        'That tool call of the view is unknown or was already answered.',
        'Call the tool again.',
      );
    if (!entry.outcome) return { done: false };
    this.tickets.delete(ticket);
    return { done: true, ...entry.outcome };
  }

  /** Calls of views still running or not yet taken (tests read this). */
  get size(): number {
    return this.tickets.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, t] of this.tickets)
      if (t.endedAt !== undefined && now - t.endedAt > OUTCOME_KEEP_MS) this.tickets.delete(id);
    if (this.tickets.size < MAX_TICKETS) return;
    for (const [id, t] of this.tickets) {
      if (this.tickets.size < MAX_TICKETS) break;
      if (t.outcome) this.tickets.delete(id);
    }
  }
}
