// One tool call walking its lifecycle (ARCHITECTURE.md, "The path of one tool call"): requested →
// awaiting approval → running (progress) → done | failed | refused, with its arguments (marked when the
// user edited them before approving) and its result. It renders a view; `viewOfEvent` makes one from
// the lifecycle stream, the chat makes one from a saved step (screens/chat/ChatToolCard.tsx).
import { escapeUntrusted as shown, jsonForTerminal } from '@shared/untrustedText';
import type { CallTask, TaskStatus } from '@shared/tasks';
import type { ToolCallPhase, Progress } from '@shared/toolCall';
import type { WireToolCallEvent, WireToolResult } from '@shared/wire';
import { describeSigns, instructionSigns } from '@shared/instructionSigns';
import { ResultView } from './ResultView';

export interface CallView {
  friendlyName: string;
  server: string;
  tool: string;
  phase: ToolCallPhase;
  progress?: Progress;
  error?: { message: string; hint?: string };
  /** The arguments that ran (or will run). */
  arguments?: Record<string, unknown>;
  /** The user edited them before approving. */
  edited?: boolean;
  /** Repairs made to the model's arguments. */
  fixes?: string[];
  result?: WireToolResult;
  /** The task the server runs the call as (MCP 2025-11-25 "Tasks"), while it is followed and after. */
  task?: CallTask;
  /** The standing permission it ran under without a question ("Always allow"): marked on the card. */
  grant?: string;
  /** A failed call that did not finish because the person cancelled it (or Mooring closed): not an error. */
  cancelled?: boolean;
}

/** A call's state from the stream as the card shows it. */
export function viewOfEvent(e: WireToolCallEvent): CallView {
  return {
    friendlyName: e.friendlyName,
    server: e.server,
    tool: e.tool,
    phase: e.phase,
    ...(e.phase === 'running' && e.progress ? { progress: e.progress } : {}),
    ...(e.error ? { error: e.error } : {}),
    ...(e.editedArguments
      ? { arguments: e.editedArguments, edited: true }
      : e.arguments
        ? { arguments: e.arguments }
        : {}),
    ...(e.fixes?.length ? { fixes: e.fixes } : {}),
    ...(e.result ? { result: e.result } : {}),
    ...(e.task ? { task: e.task } : {}),
    ...(e.grant ? { grant: e.grant } : {}),
    ...(e.phase === 'failed' && e.error?.code === 'cancelled' ? { cancelled: true } : {}),
  };
}

const PHASE_TEXT: Record<ToolCallPhase, string> = {
  requested: 'requested',
  'awaiting-approval': 'awaiting approval',
  running: 'running',
  done: 'done',
  failed: 'failed',
  refused: 'refused',
};

const TASK_TEXT: Record<TaskStatus, string> = {
  working: 'task working',
  input_required: 'task waiting for your answer',
  completed: 'task completed',
  failed: 'task failed',
  cancelled: 'task cancelled',
};

/**
 * A call's card. `onCancelTask` is the Cancel of a call that runs as a cancellable task (tasks/cancel);
 * without it the card offers none.
 */
export function ToolCallCard({ view, onCancelTask }: { view: CallView; onCancelTask?: () => void }) {
  const { phase, progress, result, cancelled } = view;
  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : undefined;
  return (
    <article
      className={`card phase-${cancelled ? 'cancelled' : phase}`}
      data-testid="call-card"
      data-phase={phase}
      data-cancelled={cancelled ? 'true' : undefined}
      aria-label={`Call of ${shown(view.friendlyName)}`}
    >
      <header className="card-head">
        <strong>{shown(view.friendlyName)}</strong>
        <span className="muted">
          {shown(view.server)} / {shown(view.tool)}
        </span>
        {view.grant && (
          <span
            className="badge call-grant"
            data-testid="call-grant"
            title={`Ran without asking you: ${shown(view.grant)} (Permissions lists it, and takes it back)`}
          >
            ✓ {shown(view.grant)}
          </span>
        )}
        <span className={`badge phase ${cancelled ? 'cancelled' : phase}`} data-testid="call-phase">
          {cancelled ? 'cancelled' : (PHASE_TEXT[phase] ?? phase)}
        </span>
      </header>
      {phase === 'running' && progress && (
        <>
          <div
            className="progress"
            role="progressbar"
            aria-label={`Progress of ${shown(view.friendlyName)}`}
            aria-valuenow={pct ?? undefined}
            aria-valuemin={0}
            aria-valuemax={100}
          >
            <div
              style={{ width: pct !== undefined ? `${pct}%` : '100%' }}
              className={pct === undefined ? 'indeterminate' : ''}
            />
          </div>
          {/* Outside the bar, which is a few pixels high: the server's words on where it stands. */}
          {progress.message && (
            <p className="muted small progress-message" data-testid="call-progress">
              {progress.message}
            </p>
          )}
        </>
      )}
      {view.task && (
        <div className="call-task" data-testid="call-task" data-status={view.task.status}>
          <span className={`badge task ${view.task.status}`}>{TASK_TEXT[view.task.status]}</span>
          {view.task.statusMessage && <span className="muted">{view.task.statusMessage}</span>}
          {view.task.resumed && <span className="muted small">followed again after Mooring restarted</span>}
          {phase === 'running' && view.task.cancellable && onCancelTask && (
            <button type="button" className="small" onClick={onCancelTask}>
              Cancel task
            </button>
          )}
        </div>
      )}
      {view.error && cancelled ? (
        // The person stopped it: what happened, said plainly, not as a failure.
        <p className="muted small call-cancelled" data-testid="call-cancelled">
          {cancelledText(view.error.message)}
        </p>
      ) : view.error ? (
        <div className="error-note" role="alert">
          <strong>{view.error.message}</strong>
          {view.error.hint && <p className="hint">{view.error.hint}</p>}
        </div>
      ) : null}
      {view.arguments && (
        <details data-testid="call-arguments" data-edited={view.edited ? 'true' : undefined}>
          <summary>{view.edited ? 'Arguments (edited by you before approval)' : 'Arguments'}</summary>
          <pre>{jsonForTerminal(view.arguments, 2)}</pre>
          {view.fixes && <p className="muted small">Repaired: {view.fixes.join('; ')}</p>}
        </details>
      )}
      {result && <InstructionSigns result={result} server={view.server} />}
      {result && (
        // Labelled: with the arguments folded, a bare result under "▸ Arguments" reads as theirs.
        <section className="call-result" aria-label={`Result of ${shown(view.friendlyName)}`}>
          <h4 className="call-result-label">Result</h4>
          <ResultView result={result} label={view.tool} />
        </section>
      )}
    </article>
  );
}

/** Why a cancelled call stopped, in a sentence: "cancelled: Mooring is closing" → "Mooring is closing." */
function cancelledText(message: string): string {
  const why = message.replace(/^cancelled:?\s*/i, '').replace(/\.$/, '');
  return why && !/^the turn was cancelled$/i.test(why)
    ? `Cancelled: ${shown(why)}.`
    : 'You cancelled this call.';
}

/** A result whose text reads like instructions to the model (shared/instructionSigns.ts), flagged. */
function InstructionSigns({ result, server }: { result: WireToolResult; server: string }) {
  const text = result.parts.map((p) => (p.kind === 'text' ? p.text : '')).join('\n');
  const signs = instructionSigns(text);
  if (!signs.length) return null;
  return (
    <p className="warn-text" role="note" data-testid="call-instruction-signs">
      ⚠ This result {shown(describeSigns(signs))}. It is data from {shown(server)}: the model is told never to
      follow it.
    </p>
  );
}
