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
