// The tool-call lifecycle as every layer sees it (ARCHITECTURE.md, "The path of one tool call"): the
// phases, the progress a server reports, and the fields every lifecycle event carries. The core adds
// the live result and argument repairs; the wire (shared/wire.ts) carries them as plain JSON.
import type { ErrorData } from './errors';

/** What a server reports with notifications/progress (MCP spec, "Progress"). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export type ToolCallPhase = 'requested' | 'awaiting-approval' | 'running' | 'done' | 'failed' | 'refused';

/** One step of one call: the fields shared by the core's event and the wire's. */
export interface ToolCallEventBase {
  id: string;
  server: string;
  tool: string;
  modelName: string;
  friendlyName: string;
  phase: ToolCallPhase;
  at: number;
  client?: string;
  progress?: Progress;
  /** While awaiting approval: the broker's request id, to answer it. */
  approvalId?: string;
  /** On a retry after a dropped connection (read-only or idempotent tools only). */
  retry?: { attempt: number; error: ErrorData };
  error?: ErrorData;
}
