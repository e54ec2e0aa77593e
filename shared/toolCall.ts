// The tool-call lifecycle as every layer sees it (ARCHITECTURE.md, "The path of one tool call"): one
// vocabulary of phases and one event type, emitted by the runner (src-main/core/calls/toolCallRunner.ts)
// to the call's own `onPhase` and to the tools service's one stream, which the chat, the playground,
// the logs and the metrics all read. The core's events carry the live result (bytes); the wire's carry
// it as base64 (`WireToolCallEvent` in shared/wire.ts), the same type with another result.
import type { ErrorData } from './errors';
import type { CallTask } from './tasks';
import type { ToolResult } from './toolResult';

/**
 * A browser flow the call waits for (MCP 2025-11-25 "Elicitation", URL Elicitation Required Error): the
 * server needs the person to finish it first; the call runs again when the server says it is done
 * (`notifications/elicitation/complete`), or when the person says so. Strings from the server: untrusted.
 */
export interface UrlElicitationWait {
  elicitationId: string;
  url: string;
  host: string;
  message: string;
}

/** What a server reports with notifications/progress (MCP spec, "Progress"). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export type ToolCallPhase = 'requested' | 'awaiting-approval' | 'running' | 'done' | 'failed' | 'refused';

export const TERMINAL_PHASES: readonly ToolCallPhase[] = ['done', 'failed', 'refused'];

export const isTerminalPhase = (p: ToolCallPhase): boolean => TERMINAL_PHASES.includes(p);

/** One step of one call. Fields beyond the identity are set on the phases that know them. */
export interface ToolCallEvent<R = ToolResult> {
  /** The call's id: the caller's (a model's tool-call id in a conversation) or a fresh UUID. */
  id: string;
  /**
   * Position in the tools service's stream, increasing by one per event across all calls: a UI applies
   * an event only when it is newer than what it holds, so a replayed snapshot never goes back in time.
   */
  seq: number;
  server: string;
  tool: string;
  modelName: string;
  friendlyName: string;
  phase: ToolCallPhase;
  at: number;
  /** Who asks (a conversation, `cli`, an MCP client's name), as in the audit log. */
  client?: string;
  /** The conversation the call belongs to: its saved step carries the result (shared/chat.ts). */
  conversationId?: string;
  /** On `requested`: the arguments as prepared for the server (repaired). */
  arguments?: Record<string, unknown>;
  /** On `requested`: human-readable argument repairs. */
  fixes?: string[];
  /** On `running`, when the user edited the arguments in the approval dialog: those are what ran. */
  editedArguments?: Record<string, unknown>;
  /** On `running` (and after): the standing permission it ran under without a question ("Always allow"). */
  grant?: string;
  progress?: Progress;
  /**
   * On `running` (and at the end) when the server runs the call as a task (shared/tasks.ts): its id and
   * status, so the card shows where it stands and offers Cancel.
   */
  task?: CallTask;
  /** On `running`, while the call waits for the person to finish a browser flow the server asked for. */
  waitingFor?: UrlElicitationWait[];
  /** While awaiting approval: the broker's request id, to answer it. */
  approvalId?: string;
  /** On a retry after a dropped connection (read-only or idempotent tools only). */
  retry?: { attempt: number; error: ErrorData };
  /** On `failed` (the call did not complete) and `refused`. */
  error?: ErrorData;
  /** On `done`, and on `failed` when the server answered with isError. */
  result?: R;
}

/**
 * A call's state after one more event: what the event says, plus what earlier phases said that still
 * holds (the arguments and repairs of `requested`, the edit of `running`, the progress a retry notice
 * does not repeat). An event no newer than the state is ignored. The core keeps its snapshot with this,
 * and every UI store folds the stream with it, so both read a call the same way.
 */
export function foldCallEvent<R>(prev: ToolCallEvent<R> | undefined, e: ToolCallEvent<R>): ToolCallEvent<R> {
  if (!prev) return e;
  if (e.seq <= prev.seq) return prev;
  const next = { ...e };
  if (prev.arguments && !next.arguments) next.arguments = prev.arguments;
  if (prev.fixes && !next.fixes) next.fixes = prev.fixes;
  if (prev.editedArguments && !next.editedArguments) next.editedArguments = prev.editedArguments;
  if (prev.grant && !next.grant) next.grant = prev.grant;
  if (next.phase === 'running' && prev.phase === 'running' && prev.progress && !next.progress)
    next.progress = prev.progress;
  if (prev.task && !next.task) next.task = prev.task;
  return next;
}

/**
 * The key of a call in any store of calls: ids are unique within a conversation (the tool loop sees to
 * that), not across conversations, since each model numbers its own calls.
 */
export function callKey(e: { id: string; conversationId?: string | undefined }): string {
  return e.conversationId ? `${e.conversationId}/${e.id}` : e.id;
}
