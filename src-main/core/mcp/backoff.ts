// Reconnect policy (docs/sessions.md, "Session actor states"): up to 5 attempts. The first one at once: a
// server that crashed once usually starts again, and every call waits on the session meanwhile. Then
// exponential backoff from 0.5 s to an 8 s cap, so a server that keeps failing is not respawned in a loop.
// A session that stayed ready for 60 s earns a fresh budget.
export interface BackoffPolicy {
  maxAttempts: number;
  baseMs: number;
  capMs: number;
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { maxAttempts: 5, baseMs: 500, capMs: 8000, stableMs: 60_000 };

/** Delay before attempt n (1-based): none before the first, then baseMs doubling up to capMs. */
export function backoffDelay(policy: BackoffPolicy, attempt: number): number {
  if (attempt <= 1) return 0;
  return Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 2));
}
