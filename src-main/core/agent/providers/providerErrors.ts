// Every provider failure becomes a MooringError with a hint that says what to do (a person reads it in the
// chat and on the Models screen). Duck-typed on `status` and class names so the three SDKs share one mapping.
import { MooringError } from '../../errors';

const SETTINGS_HINT = 'Start the model server, or choose another provider in Settings > Models';

export function isAbortLike(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const name = (err as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ECONNRESET', 'EHOSTUNREACH', 'ETIMEDOUT']);
const CONNECT_CLASSES = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);

/**
 * The request never reached a model server. The SDKs say so differently: Anthropic's error has the class
 * name as its `name`, OpenAI's keeps `name` "Error" (only its class says APIConnectionError), and each wraps
 * fetch's "fetch failed" TypeError, whose own cause carries the socket's code. So the class and the whole
 * cause chain are looked at, not only the outer error.
 */
function connectionRefused(err: unknown): boolean {
  for (let e = err as ErrorLike | undefined, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e !== 'object') return false;
    if (CONNECT_CLASSES.has(e.name ?? '') || CONNECT_CLASSES.has(e.constructor?.name ?? '')) return true;
    if (e.message === 'fetch failed' || CONNECT_CODES.has(e.code ?? '')) return true;
  }
  return false;
}

interface ErrorLike {
  name?: string;
  message?: string;
  code?: string;
  cause?: ErrorLike;
  constructor?: { name?: string };
}

export interface ProviderErrorContext {
  /** Human name: 'Ollama', 'the OpenAI-compatible endpoint', 'Anthropic'. */
  label: string;
  baseUrl: string;
  model: string;
  signal?: AbortSignal;
  /** Hint for an unreachable endpoint. */
  connectHint?: string;
  /** Hint for a 401/403. */
  authHint?: string;
}

export function toProviderError(err: unknown, ctx: ProviderErrorContext): MooringError {
  if (err instanceof MooringError) return err;
  if (isAbortLike(err, ctx.signal)) return new MooringError('cancelled', 'The model request was cancelled');
  if (connectionRefused(err)) {
    return new MooringError(
      'connect_failed',
      `${ctx.label} is not reachable at ${ctx.baseUrl}`,
      ctx.connectHint ?? SETTINGS_HINT,
      { cause: err },
    );
  }
  const e = err as { status?: number; status_code?: number; message?: string };
  const status = e?.status ?? e?.status_code;
  const detail = e?.message ?? String(err);
  if (status === 401 || status === 403) {
    return new MooringError(
      'auth_required',
      `${ctx.label} refused the credentials: ${detail}`,
      ctx.authHint,
      {
        cause: err,
      },
    );
  }
  if (status === 404) {
    return new MooringError(
      'not_found',
      `${ctx.label} has no model "${ctx.model}": ${detail}`,
      'Check the model name, or pull the model first (for Ollama: ollama pull NAME)',
      { cause: err },
    );
  }
  return new MooringError(
    'protocol_error',
    `${ctx.label} failed${status ? ` (HTTP ${status})` : ''}: ${detail}`,
    'Try again, or choose another model in Settings > Models',
    { cause: err },
  );
}

/** Parses a model's tool-call argument JSON; anything but an object is reported, never thrown. */
export function parseToolArguments(raw: string): { arguments: Record<string, unknown>; invalid?: string } {
  if (raw.trim() === '') return { arguments: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return { arguments: value as Record<string, unknown> };
    }
    return { arguments: {}, invalid: `arguments must be a JSON object, got ${raw.slice(0, 200)}` };
  } catch (err) {
    return {
      arguments: {},
      invalid: `arguments are not valid JSON (${(err as Error).message}): ${raw.slice(0, 200)}`,
    };
  }
}
