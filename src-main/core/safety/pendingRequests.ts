// Requests parked until a person answers — tool approvals (safety/approvalBroker.ts), sampling and
// elicitation (clientFeatures/interactionBroker.ts) all park here:
// pending requests are listed and answered by id, an unanswered one is refused after a timeout, an abort
// cancels it, and every request emits `requested` then exactly one `resolved`.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { ErrorData } from '@shared/errors';
import { MooringError } from '../errors';

export interface Stamped {
  id: string;
  requestedAt: number;
  expiresAt: number;
}

export interface PendingResolved<Req, Ans> {
  request: Req;
  answer?: Ans;
  error?: ErrorData;
}

export interface PendingEvents<Req, Ans> {
  requested: [Req];
  resolved: [PendingResolved<Req, Ans>];
}

export interface PendingRequestsOptions<Req, Ans> {
  /** What the requests are, for error messages ("sampling request"). */
  noun: string;
  timeoutMs: number;
  /** Parses one answer for one request; throws a MooringError (`usage`) to keep the request pending. */
  parse: (request: Req, answer: unknown) => Ans;
  /** Where the user answers, for the timeout hint. */
  answerHint: string;
  now?: () => number;
  newId?: () => string;
  /** How a request is named in messages about it when no label was given (dispose, cancel). */
  labelOf?: (request: Req) => string;
  /** Wording of the errors, where the default ("… from X …, so it was declined.") does not fit. */
  messages?: {
    timeout?: (label: string, seconds: number) => string;
    cancelled?: (label: string, why: string | undefined) => string;
    notFound?: (id: string) => { message: string; hint: string };
  };
}

interface Waiting<Req, Ans> {
  request: Req;
  settle: (r: { answer: Ans } | { error: MooringError }) => void;
}

export class PendingRequests<Req extends Stamped, Ans> extends EventEmitter<PendingEvents<Req, Ans>> {
  private readonly waiting = new Map<string, Waiting<Req, Ans>>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly opts: PendingRequestsOptions<Req, Ans>) {
    super();
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  /** Parks a request until it is answered; rejects with `refused` on timeout, `cancelled` on abort. */
  ask(
    input: Omit<Req, keyof Stamped>,
    opts: { label: string; signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
  ): Promise<Ans> {
    const { signal, label } = opts;
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs;
    const at = this.now();
    const request = { ...input, id: this.newId(), requestedAt: at, expiresAt: at + timeoutMs } as Req;
    if (signal?.aborted) return Promise.reject(this.cancelled(label, signal.reason));

    return new Promise<Ans>((resolve, reject) => {
      const onAbort = () => settle({ error: this.cancelled(label, signal?.reason) });
      const timer = setTimeout(
        () =>
          settle({
            error: new MooringError(
              'refused',
              this.opts.messages?.timeout?.(label, Math.round(timeoutMs / 1000)) ??
                `No answer to the ${this.opts.noun} from ${label} within ${Math.round(timeoutMs / 1000)} s, so it was declined.`,
              this.opts.answerHint,
            ),
          }),
        timeoutMs,
      );
      const settle = (r: { answer: Ans } | { error: MooringError }) => {
        if (!this.waiting.delete(request.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if ('answer' in r) {
          this.emit('resolved', { request, answer: r.answer });
          resolve(r.answer);
        } else {
          this.emit('resolved', { request, error: r.error.toData() });
          reject(r.error);
        }
      };
      this.waiting.set(request.id, { request, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.emit('requested', request);
    });
  }

  /** The requests waiting for an answer, oldest first. */
  pending(): Req[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  get(id: string): Req | undefined {
    return this.waiting.get(id)?.request;
  }

  /** Answers one pending request. Throws `not_found` when it is gone, `usage` when the answer is invalid. */
  answer(id: string, answer: unknown): void {
    const waiting = this.waiting.get(id);
    if (!waiting) {
      const nf = this.opts.messages?.notFound?.(id) ?? {
        message: `There is no pending ${this.opts.noun} with id "${id}".`,
        hint: 'It was already answered, timed out or cancelled; list the pending requests again.',
      };
      throw new MooringError('not_found', nf.message, nf.hint);
    }
    waiting.settle({ answer: this.opts.parse(waiting.request, answer) });
  }

  /** Ends one pending request as cancelled (e.g. the app it was relayed to gave up on it). */
  cancel(id: string, reason?: string): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    waiting.settle({ error: this.cancelled(this.labelOf(waiting.request), reason) });
    return true;
  }

  /** Ends one pending request with this error (e.g. nobody can be asked: the app to relay it to is gone). */
  reject(id: string, error: MooringError): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    waiting.settle({ error });
    return true;
  }

  /** Cancels every pending request (on shutdown), so nothing waits forever. */
  dispose(): void {
    for (const w of [...this.waiting.values()])
      w.settle({ error: this.cancelled(this.labelOf(w.request), 'Mooring is shutting down') });
  }

  private labelOf(request: Req): string {
    return this.opts.labelOf?.(request) ?? `"${request.id}"`;
  }

  private cancelled(label: string, reason: unknown): MooringError {
    const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : undefined;
    return new MooringError(
      'cancelled',
      this.opts.messages?.cancelled?.(label, why) ??
        `The ${this.opts.noun} from ${label} was cancelled${why ? `: ${why}` : ''}.`,
    );
  }
}

/** A broker of parked requests as its askers see it (approvals, interactions). */
export interface ParkedFeed<Req> {
  on(event: 'requested', listener: (request: Req) => void): unknown;
  off(event: 'requested', listener: (request: Req) => void): unknown;
  pending(): Req[];
}

/**
 * Calls `each` for every request parked from now on and for each one already parked (a quick client's, parked
 * before the asker came), until the returned function is called.
 */
export function eachParked<Req>(broker: ParkedFeed<Req>, each: (request: Req) => void): () => void {
  broker.on('requested', each);
  for (const request of broker.pending()) each(request);
  return () => void broker.off('requested', each);
}
