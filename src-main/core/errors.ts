// Local errors are MooringError; a JSON-RPC error from a server is kept apart as code 'tool_error'
// or 'protocol_error' with the server's message (local and wire errors are different types).
import type { ErrorCode, ErrorData } from '@shared/errors';

export class MooringError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  constructor(code: ErrorCode, message: string, hint?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MooringError';
    this.code = code;
    this.hint = hint;
  }
  toData(): ErrorData {
    return this.hint
      ? { code: this.code, message: this.message, hint: this.hint }
      : { code: this.code, message: this.message };
  }
}

/** Any thrown value as error data, for the boundary. */
export function toErrorData(err: unknown): ErrorData {
  if (err instanceof MooringError) return err.toData();
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}
