// The approval broker (ARCHITECTURE.md, "The path of one tool call"): the one place where a call waiting for the user parks. The core calls
// `request`; whichever UI is attached (the Electron window, browser mode, the CLI prompt) lists `pending()`
// and answers by id. An unanswered request is refused after a timeout; an abort cancels it.
import { EventEmitter } from 'node:events';
import {
  ApprovalDecisionSchema,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalRequestInput,
  type ApprovalResolved,
} from '@shared/approval';
import { MooringError } from '../errors';
import { PendingRequests } from './pendingRequests';

export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60_000;

export type { ApprovalResolved };

export interface ApprovalBrokerEvents {
  requested: [ApprovalRequest];
  resolved: [ApprovalResolved];
}

export interface ApprovalBrokerOptions {
  timeoutMs?: number;
  now?: () => number;
  newId?: () => string;
}

/** The approval answer, or a clear `usage` error that keeps the request pending. */
function parseDecision(_request: ApprovalRequest, decision: unknown): ApprovalDecision {
  const parsed = ApprovalDecisionSchema.safeParse(decision);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new MooringError(
    'usage',
    `The approval answer is not valid (${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}).`,
    'Answer with {outcome: "approve" | "deny" | "always", decidedBy, arguments?} where arguments is an object.',
  );
}

/** Tool approvals park in the shared PendingRequests; this keeps their wording and their event shape. */
export class ApprovalBroker extends EventEmitter<ApprovalBrokerEvents> {
  private readonly parked: PendingRequests<ApprovalRequest, ApprovalDecision>;

  constructor(opts: ApprovalBrokerOptions = {}) {
    super();
    this.parked = new PendingRequests<ApprovalRequest, ApprovalDecision>({
      noun: 'approval',
      timeoutMs: opts.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
      parse: parseDecision,
      answerHint:
        'Answer approval requests in the Mooring window or the CLI prompt, or pass --yes to the CLI for this call.',
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.newId ? { newId: opts.newId } : {}),
      labelOf: (r) => `"${r.friendlyName}"`,
      messages: {
        timeout: (label, seconds) =>
          `No answer to the approval for ${label} within ${seconds} s, so the call was refused.`,
        cancelled: (label, why) => `The approval for ${label} was cancelled${why ? `: ${why}` : ''}.`,
        notFound: (id) => ({
          message: `There is no pending approval with id "${id}".`,
          hint: 'It was already answered, timed out or cancelled; list the pending approvals again.',
        }),
      },
    });
    this.parked.on('requested', (r) => this.emit('requested', r));
    this.parked.on('resolved', ({ request, answer, error }) =>
      this.emit('resolved', {
        request,
        ...(answer ? { decision: answer } : {}),
        ...(error ? { error } : {}),
      }),
    );
  }

  /**
   * Parks a call until the user decides. Resolves with the decision (approve, deny or always: a deny is a
   * decision, not an error); rejects with `refused` on timeout and `cancelled` when `signal` aborts.
   */
  request(
    input: ApprovalRequestInput,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<ApprovalDecision> {
    return this.parked.ask(input, {
      label: `"${input.friendlyName}" (${input.server}/${input.tool})`,
      signal: opts.signal,
      timeoutMs: opts.timeoutMs,
    });
  }

  /** The requests waiting for an answer, oldest first. */
  pending(): ApprovalRequest[] {
    return this.parked.pending();
  }

  /** Ends one pending request as cancelled (e.g. the app it was relayed to gave up on it). */
  cancel(id: string, reason?: string): boolean {
    return this.parked.cancel(id, reason);
  }

  /** Ends one pending request with this error (the relay: no app to ask). */
  reject(id: string, error: MooringError): boolean {
    return this.parked.reject(id, error);
  }

  /** Answers one pending request. Throws `not_found` when it was already answered, timed out or cancelled. */
  answer(id: string, decision: unknown): void {
    this.parked.answer(id, decision);
  }

  /** Cancels every pending request (on shutdown), so no call waits forever. */
  dispose(): void {
    this.parked.dispose();
  }
}
