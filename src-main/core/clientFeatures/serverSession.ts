// What the prompt and resource helpers need of a session: its name and its requests (SessionActor satisfies
// it). Every request goes through the session's request handler (mcp/requestHandler.ts), which gives it the
// session's timeout, abort, redaction, metrics and traffic trace, and maps its failures onto MooringErrors.
import type { LoggingLevel, ServerCapabilities } from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import type { ServerRequests } from '../mcp/types';

export interface ServerSession {
  readonly name: string;
  readonly requests: ServerRequests;
  /**
   * A 2026-07-28 session's listen stream and per-request log level (MCP 2026-07-28, "subscriptions/listen",
   * "Logging"); SessionActor has both. A session without them is treated as a 2025 one.
   */
  watchResources?(uris: string[]): Promise<void>;
  setRequestLogLevel?(level: LoggingLevel): void;
}

/** Whether the session negotiated the 2026-07-28 protocol (no handshake; listen streams; input_required). */
export function isModern(session: ServerSession): boolean {
  return session.requests.era() === 'modern';
}

/** The running session of `server`, or a `not_found` error that says where to look. */
export function runningSession(
  sessions: { get(name: string): ServerSession | undefined },
  server: string,
): ServerSession {
  const s = sessions.get(server);
  if (!s)
    throw new MooringError(
      'not_found',
      `No server named "${server}" is running`,
      'See the Servers screen or `mooring mcp list`: is it added, enabled and ready?',
    );
  return s;
}

/**
 * What a ready session's server offers; a `connect_failed` error when the session is not ready (a person
 * asked for it now: this does not wait for a reconnect).
 */
export function offers(session: ServerSession): ServerCapabilities {
  const caps = session.requests.capabilities();
  if (!caps)
    throw new MooringError(
      'connect_failed',
      `"${session.name}" is not connected.`,
      'Wait until the server is ready (its status shows it), or open its Logs to see why it fails.',
    );
  return caps;
}
