// Safe retries (ARCHITECTURE.md, "The path of one tool call"): a call that failed because the connection dropped before the server answered
// (`transport_closed`) is retried once, on the session the actor reconnects by itself, but only when the
// tool says running it twice is harmless (`readOnlyHint` or `idempotentHint`, MCP spec 2025-06-18,
// "Tool annotations"). Any other tool fails explicitly: it may or may not have run, and only the model
// or the user can decide whether to call it again.
import type { ToolAnnotations } from '@modelcontextprotocol/client';
import { hintsReadOnly } from '@shared/approval';
import { MooringError } from '../errors';

export interface RetryableTool {
  /** For messages: `server/tool`, or the tool name. */
  name?: string;
  annotations?: ToolAnnotations | undefined;
}

export interface SafeRetryOptions {
  /** Called once, before the retry: the place to emit a lifecycle event (e.g. `running` with a note). */
  onRetry?: (err: MooringError) => void;
  /** A cancelled call is never retried. */
  signal?: AbortSignal | undefined;
}

/** True when running the tool twice with the same arguments has no additional effect. */
export function isSafeToRetry(tool: RetryableTool): boolean {
  return hintsReadOnly(tool.annotations) || tool.annotations?.idempotentHint === true;
}

const isTransient = (err: unknown): err is MooringError =>
  err instanceof MooringError && err.code === 'transport_closed';

/**
 * Runs `call`; on a dropped connection retries it once when the tool is read-only or idempotent.
 * A second failure is thrown as it is; a tool that is not safe to retry gets an explicit
 * `transport_closed` error saying it was not retried and may have run.
 */
export async function withSafeRetry<T>(
  call: () => Promise<T>,
  tool: RetryableTool,
  opts: SafeRetryOptions = {},
): Promise<T> {
  try {
    return await call();
  } catch (err) {
    return retryAfterDrop(err, { call, tool, ...opts });
  }
}

/**
 * What `withSafeRetry` does once the first attempt failed with `err`: for a caller that made the first
 * attempt itself (the tool-call runner, which keeps no closure around a call that succeeds).
 */
export async function retryAfterDrop<T>(
  err: unknown,
  o: SafeRetryOptions & { call: () => Promise<T>; tool: RetryableTool },
): Promise<T> {
  const { tool } = o;
  if (!isTransient(err) || o.signal?.aborted) throw err;
  const what = tool.name ? `"${tool.name}"` : 'The tool';
  if (!isSafeToRetry(tool))
    throw new MooringError(
      'transport_closed',
      `${what} was interrupted: the connection to its server broke before it answered. It was not retried, ` +
        'because the tool is not marked read-only or idempotent, so it may already have run and running it ' +
        'again could repeat its effect.',
      'Check whether it took effect before calling it again; Mooring is reconnecting to the server.',
      { cause: err },
    );
  o.onRetry?.(err);
  try {
    return await o.call();
  } catch (again) {
    if (!isTransient(again)) throw again;
    throw new MooringError(
      'transport_closed',
      `${what} failed twice: the connection to its server broke during the call and again during the one retry.`,
      "Open the server's Logs to see why it keeps stopping.",
      { cause: again },
    );
  }
}
