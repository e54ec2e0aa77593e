// The session room's public contract. Everything above the session room (catalog, safety, agent,
// api, cli) depends on these types, never on the actor's internals.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { LogLine, SessionStatus, ToolsChange } from '@shared/session';
import type { Progress } from '@shared/toolCall';

export type { CallToolResult, Progress, Tool, ToolsChange };

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Overrides the server's timeoutSeconds for this call (capped at 600 s). */
  timeoutMs?: number;
}

/**
 * A tool as the session hands it out. The same object lives for the session's lifetime:
 * reconnects and list_changed refreshes update `definition` in place (ARCHITECTURE.md).
 */
export interface ToolHandle {
  readonly server: string;
  readonly name: string;
  /** The latest definition the server gave. */
  readonly definition: Tool;
  /** True once the server stopped listing this tool; calls then fail with not_found. */
  readonly removed: boolean;
  call(args: Record<string, unknown>, opts?: CallOptions): Promise<CallToolResult>;
}

export interface SessionEvents {
  status: (status: SessionStatus) => void;
  tools: (change: ToolsChange) => void;
  log: (line: LogLine) => void;
}
