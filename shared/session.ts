// What the UI and CLI see of a session actor (docs/sessions.md, "Session actor states").
import type { ErrorData } from './errors';

export type SessionState = 'idle' | 'connecting' | 'ready' | 'reconnecting' | 'failed' | 'closed';

export interface ServerMetrics {
  calls: number;
  errors: number;
  p50Ms: number | null;
  p95Ms: number | null;
  reconnects: number;
  /** Every other request Mooring sent the server, by method (prompts/get, resources/read, tasks/get, …). */
  requests?: Record<string, { calls: number; errors: number }>;
}

export interface SessionStatus {
  name: string;
  state: SessionState;
  /** While reconnecting: attempt n of max. */
  attempt?: number;
  maxAttempts?: number;
  /** Why the session failed or last broke. */
  error?: ErrorData;
  toolCount: number;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  /** How long the last connect took, spawn or request to tools listed (ms). */
  connectMs?: number;
  /** The server process's id (stdio), while it runs. */
  pid?: number;
  metrics: ServerMetrics;
}

/** What changed in a server's tool list (after tools/list or notifications/tools/list_changed). */
export interface ToolsChange {
  server: string;
  added: string[];
  removed: string[];
  /** Tools whose description, schema or annotations changed. */
  changed: string[];
}

export interface LogLine {
  server: string;
  at: number;
  /**
   * `stderr`: the process's stderr; `server`: its notifications/message; `host`: Mooring's own lines about
   * it (lifecycle, safety notes); `rpc`: a JSON-RPC message to (→) or from (←) it, when traffic is recorded.
   */
  source: 'stderr' | 'server' | 'host' | 'rpc';
  level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
  text: string;
}

/**
 * A session's state in a word or two ("ready", "reconnecting 2/5", "failed"): the Servers screen's badge
 * and `mooring mcp list` say the same words.
 */
export function stateText(
  status: Pick<SessionStatus, 'state' | 'attempt' | 'maxAttempts'> | null,
  enabled: boolean,
): string {
  if (!enabled) return 'disabled';
  if (!status) return 'not started';
  switch (status.state) {
    case 'reconnecting':
      return status.attempt ? `reconnecting ${status.attempt}/${status.maxAttempts ?? 5}` : 'reconnecting';
    case 'connecting':
      return 'connecting…';
    default:
      return status.state;
  }
}
