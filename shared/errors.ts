// Errors cross every boundary (router, CLI JSON, MCP server) as data, never as a flattened string.

export const ERROR_CODES = [
  'usage',
  'config_invalid',
  'config_not_found',
  'not_found',
  'untrusted_command',
  'connect_failed',
  'timeout',
  'transport_closed',
  'cancelled',
  'tool_error',
  'protocol_error',
  'refused',
  'ssrf_blocked',
  /** A server asks to run confined and confinement cannot run on this machine (docs/confinement.md). */
  'confinement_unavailable',
  'vulnerable_package',
  'secret_unavailable',
  'auth_required',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorData {
  code: ErrorCode;
  message: string;
  /** What the user can do about it, in one sentence. */
  hint?: string;
}

/**
 * A connect error's message carries the last lines of the server's stderr after this line; the UI shows
 * them as a monospace block of their own, the CLI prints the message whole.
 */
export const STDERR_TAIL_MARKER = "\nLast lines of the server's stderr:\n";

/** The one-line reason and, when present, the details after it (the stderr tail). */
export function splitErrorDetails(message: string): { summary: string; details?: string } {
  const at = message.indexOf(STDERR_TAIL_MARKER);
  if (at >= 0)
    return { summary: message.slice(0, at), details: message.slice(at + STDERR_TAIL_MARKER.length) };
  const nl = message.indexOf('\n');
  return nl < 0 ? { summary: message } : { summary: message.slice(0, nl), details: message.slice(nl + 1) };
}
