// Logging (spec 2025-11-25 and 2026-07-28, "Logging"): a server that offers logging is told the level the user
// picked (settings.logLevel), so it sends `notifications/message` at that level and above; the session
// actor already routes those messages to the server's log view.
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { LogLevel } from '@shared/settings';
import { isModern, type ServerSession } from './serverSession';

/** Mooring's levels are the protocol's eight (RFC 5424 names): each is sent as it is. */
export const MCP_LOG_LEVEL: Record<LogLevel, LoggingLevel> = {
  debug: 'debug',
  info: 'info',
  notice: 'notice',
  warning: 'warning',
  error: 'error',
  critical: 'critical',
  alert: 'alert',
  emergency: 'emergency',
};

/**
 * Tells a server that offers logging the level; returns whether it did. A 2025 server gets
 * `logging/setLevel`; a 2026-07-28 one has no such request and reads the level from each request's `_meta`
 * (MCP 2026-07-28, "Logging"), which the session then attaches.
 */
export async function applyLogLevel(session: ServerSession, level: LogLevel): Promise<boolean> {
  if (!session.requests.capabilities()?.logging) return false;
  if (isModern(session)) {
    session.setRequestLogLevel?.(MCP_LOG_LEVEL[level]);
    return true;
  }
  await session.requests.setLoggingLevel(MCP_LOG_LEVEL[level]);
  return true;
}
