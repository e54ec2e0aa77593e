// Reconnect policy (issue 2): up to 5 attempts, exponential backoff 0.5 s → 8 s cap;
// a session that stayed ready for 60 s earns a fresh budget.
export interface BackoffPolicy {
  maxAttempts: number;
  baseMs: number;
  capMs: number;
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { maxAttempts: 5, baseMs: 500, capMs: 8000, stableMs: 60_000 };

/** Delay before attempt n (1-based). */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
}
