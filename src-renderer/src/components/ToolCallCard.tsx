// One tool call walking its lifecycle (ARCHITECTURE.md, "The path of one tool call"): requested →
// awaiting approval → running (progress) → done | failed | refused, with its arguments (marked when the
// user edited them before approving) and its result. It renders a view; `viewOfEvent` makes one from
// the lifecycle stream, the chat makes one from a saved step (screens/chat/ChatToolCard.tsx).
import type { ToolCallPhase, Progress } from '@shared/toolCall';
import type { WireToolCallEvent, WireToolResult } from '@shared/wire';
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

export function ToolCallCard({ view }: { view: CallView }) {
  const { phase, progress, result } = view;
  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : undefined;
  return (
    <article
      className={`card phase-${phase}`}
      data-testid="call-card"
      data-phase={phase}
      aria-label={`Call of ${view.friendlyName}`}
    >
      <header className="card-head">
        <strong>{view.friendlyName}</strong>
        <span className="muted">
          {view.server} / {view.tool}
        </span>
        <span className={`badge phase ${phase}`} data-testid="call-phase">
          {PHASE_TEXT[phase] ?? phase}
        </span>
      </header>
      {phase === 'running' && progress && (
        <div
          className="progress"
          role="progressbar"
          aria-valuenow={pct ?? undefined}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div
            style={{ width: pct !== undefined ? `${pct}%` : '100%' }}
            className={pct === undefined ? 'indeterminate' : ''}
          />
          {progress.message && <span className="muted">{progress.message}</span>}
        </div>
      )}
      {view.error && (
        <div className="error-note" role="alert">
          <strong>{view.error.message}</strong>
          {view.error.hint && <p className="hint">{view.error.hint}</p>}
        </div>
      )}
      {view.arguments && (
        <details data-testid="call-arguments" data-edited={view.edited ? 'true' : undefined}>
          <summary>{view.edited ? 'Arguments (edited by you before approval)' : 'Arguments'}</summary>
          <pre>{JSON.stringify(view.arguments, null, 2)}</pre>
          {view.fixes && <p className="muted small">Repaired: {view.fixes.join('; ')}</p>}
        </details>
      )}
      {result && <ResultView result={result} label={view.tool} />}
    </article>
  );
}
