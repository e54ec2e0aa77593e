// What the prompt and resource helpers need of a session: its name and its live SDK client
// (SessionActor satisfies it), and one mapping of SDK failures onto MooringErrors with a hint.
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Client,
  type LoggingLevel,
} from '@modelcontextprotocol/client';
import { MooringError } from '../errors';
import { callError } from '../mcp/sessionErrors';

export interface ServerSession {
  readonly name: string;
  sdkClient(): Client | undefined;
  /**
   * A 2026-07-28 session's listen stream and per-request log level (MCP 2026-07-28, "subscriptions/listen",
   * "Logging"); SessionActor has both. A session without them is treated as a 2025 one.
   */
  watchResources?(uris: string[]): Promise<void>;
  setRequestLogLevel?(level: LoggingLevel): void;
}

/** Whether the session negotiated the 2026-07-28 protocol (no handshake; listen streams; input_required). */
export function isModern(session: ServerSession): boolean {
  return session.sdkClient()?.getProtocolEra() === 'modern';
}

/** Requests beyond tools get the SDK's default timeout unless told; a person is waiting for these. */
export const FEATURE_TIMEOUT_MS = 30_000;

export function readyClient(session: ServerSession): Client {
  const client = session.sdkClient();
  if (!client)
    throw new MooringError(
      'connect_failed',
      `"${session.name}" is not connected.`,
      'Wait until the server is ready (its status shows it), or open its Logs to see why it fails.',
    );
  return client;
}

/** Runs one request against a session, mapping every failure onto a MooringError. */
export async function onSession<T>(
  session: ServerSession,
  what: string,
  fn: (client: Client) => Promise<T>,
): Promise<T> {
  const client = readyClient(session);
  try {
    return await fn(client);
  } catch (err) {
    if (err instanceof MooringError) throw err;
    if (err instanceof SdkError && err.code === SdkErrorCode.CapabilityNotSupported)
      throw new MooringError(
        'usage',
        `"${session.name}" does not support ${what}.`,
        'This server does not offer it; nothing to do in Mooring.',
        { cause: err },
      );
    if (err instanceof ProtocolError)
      throw new MooringError(
        'protocol_error',
        `${session.name}: ${what} failed with error ${err.code}: ${err.message}`,
        'Check the name and arguments; the server rejected them.',
        { cause: err },
      );
    throw callError(err, { server: session.name, tool: what, timeoutMs: FEATURE_TIMEOUT_MS });
  }
}
