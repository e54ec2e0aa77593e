// Every provider failure becomes a MooringError with a hint (STYLE.md: bad input gets a clear error
// saying what to do). Duck-typed on `status` and class names so the three SDKs share one mapping.
import { MooringError } from '../../errors';

const SETTINGS_HINT = 'Start the model server, or choose another provider in Settings > Models';

export function isAbortLike(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const name = (err as { name?: string } | null)?.name;
  return name === 'AbortError' || name === 'APIUserAbortError';
}

function connectionRefused(err: unknown): boolean {
  const e = err as { name?: string; message?: string; cause?: { code?: string } } | null;
  if (!e) return false;
  if (e.name === 'APIConnectionError' || e.name === 'APIConnectionTimeoutError') return true;
  const code = e.cause?.code;
  return (
    e.message === 'fetch failed' ||
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ECONNRESET' ||
    code === 'EHOSTUNREACH'
  );
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
