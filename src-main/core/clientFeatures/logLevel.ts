// Logging (spec 2025-11-25 and 2026-07-28, "Logging"): a server that offers logging is told the level the user
// picked (settings.logLevel), so it sends `notifications/message` at that level and above; the session
// actor already routes those messages to the server's log view.
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { LogLevel } from '@shared/settings';
import { FEATURE_TIMEOUT_MS, isModern, onSession, type ServerSession } from './serverSession';

/** Mooring's four levels onto the protocol's eight (RFC 5424 names). */
export const MCP_LOG_LEVEL: Record<LogLevel, LoggingLevel> = {
  error: 'error',
  warn: 'warning',
  info: 'info',
  debug: 'debug',
};

/**
 * Tells a server that offers logging the level; returns whether it did. A 2025 server gets
 * `logging/setLevel`; a 2026-07-28 one has no such request and reads the level from each request's `_meta`
 * (MCP 2026-07-28, "Logging"), which the session then attaches.
 */
export async function applyLogLevel(session: ServerSession, level: LogLevel): Promise<boolean> {
  if (!session.sdkClient()?.getServerCapabilities()?.logging) return false;
  if (isModern(session)) {
    session.setRequestLogLevel?.(MCP_LOG_LEVEL[level]);
    return true;
  }
  await onSession(session, 'logging/setLevel', (c) =>
    c.setLoggingLevel(MCP_LOG_LEVEL[level], { timeout: FEATURE_TIMEOUT_MS }),
  );
  return true;
}
