// The approval broker (issue 4): the one place where a call waiting for the user parks. The core calls
// `request`; whichever UI is attached (the Electron window, browser mode, the CLI prompt) lists `pending()`
// and answers by id. An unanswered request is refused after a timeout; an abort cancels it.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  ApprovalDecisionSchema,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalRequestInput,
} from '@shared/approval';
import type { ErrorData } from '@shared/errors';
import { MooringError } from '../errors';

export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000;

export interface ApprovalResolved {
  request: ApprovalRequest;
  /** Set when the user answered. */
  decision?: ApprovalDecision;
  /** Set when the request ended unanswered: timeout (`refused`) or abort (`cancelled`). */
  error?: ErrorData;
}

export interface ApprovalBrokerEvents {
  requested: [ApprovalRequest];
  resolved: [ApprovalResolved];
}

export interface ApprovalBrokerOptions {
  timeoutMs?: number;
  now?: () => number;
  newId?: () => string;
}

interface Pending {
  request: ApprovalRequest;
  settle: (r: { decision: ApprovalDecision } | { error: MooringError }) => void;
}

export class ApprovalBroker extends EventEmitter<ApprovalBrokerEvents> {
  private readonly waiting = new Map<string, Pending>();
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(opts: ApprovalBrokerOptions = {}) {
    super();
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  /**
   * Parks a call until the user decides. Resolves with the decision (approve, deny or always: a deny is a
   * decision, not an error); rejects with `refused` on timeout and `cancelled` when `signal` aborts.
   */
  request(
    input: ApprovalRequestInput,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ApprovalDecision> {
    const { signal } = opts;
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const at = this.now();
    const request: ApprovalRequest = {
      ...input,
      id: this.newId(),
      requestedAt: at,
      expiresAt: at + timeoutMs,
    };
    const label = `"${input.friendlyName}" (${input.server}/${input.tool})`;
    if (signal?.aborted) return Promise.reject(cancelledError(label, signal.reason));

    return new Promise<ApprovalDecision>((resolve, reject) => {
      const onAbort = () => settle({ error: cancelledError(label, signal?.reason) });
      const timer = setTimeout(
        () =>
          settle({
            error: new MooringError(
              'refused',
              `No answer to the approval for ${label} within ${Math.round(timeoutMs / 1000)} s, so the call was refused.`,
              'Answer approval requests in the Mooring window or the CLI prompt, or pass --yes to the CLI for this call.',
            ),
          }),
        timeoutMs,
      );
      const settle = (r: { decision: ApprovalDecision } | { error: MooringError }) => {
        if (!this.waiting.delete(request.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if ('decision' in r) {
          this.emit('resolved', { request, decision: r.decision });
          resolve(r.decision);
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
  pending(): ApprovalRequest[] {
    return [...this.waiting.values()].map((p) => p.request);
  }

  /** Ends one pending request as cancelled (e.g. the app it was relayed to gave up on it). */
  cancel(id: string, reason?: string): boolean {
    const pending = this.waiting.get(id);
    if (!pending) return false;
    pending.settle({ error: cancelledError(`"${pending.request.friendlyName}"`, reason) });
    return true;
  }

  /** Answers one pending request. Throws `not_found` when it was already answered, timed out or cancelled. */
  answer(id: string, decision: unknown): void {
    const pending = this.waiting.get(id);
    if (!pending)
      throw new MooringError(
        'not_found',
        `There is no pending approval with id "${id}".`,
        'It was already answered, timed out or cancelled; list the pending approvals again.',
      );
    const parsed = ApprovalDecisionSchema.safeParse(decision);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MooringError(
        'usage',
        `The approval answer is not valid (${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}).`,
        'Answer with {outcome: "approve" | "deny" | "always", decidedBy, arguments?} where arguments is an object.',
      );
    }
    pending.settle({ decision: parsed.data });
  }

  /** Cancels every pending request (on shutdown), so no call waits forever. */
  dispose(): void {
    for (const p of [...this.waiting.values()])
      p.settle({ error: cancelledError(`"${p.request.friendlyName}"`, 'Mooring is shutting down') });
  }
}

function cancelledError(label: string, reason: unknown): MooringError {
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : undefined;
  return new MooringError('cancelled', `The approval for ${label} was cancelled${why ? `: ${why}` : ''}.`);
}
