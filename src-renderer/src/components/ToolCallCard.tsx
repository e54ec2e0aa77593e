// One tool call walking its lifecycle (ARCHITECTURE.md "The path of one tool call"): requested →
// awaiting approval → running (progress) → done | failed | refused, with arguments and result.
import { phaseOf, type CallCard } from '../stores/callStore';
import { ResultView } from './ResultView';

const PHASE_TEXT: Record<string, string> = {
  requested: 'requested',
  'awaiting-approval': 'awaiting approval',
  running: 'running',
  done: 'done',
  failed: 'failed',
  refused: 'refused',
};

export function ToolCallCard({ card }: { card: CallCard }) {
  const phase = phaseOf(card);
  const last = card.events.at(-1);
  const progress = [...card.events].reverse().find((e) => e.progress)?.progress;
  const result = [...card.events].reverse().find((e) => e.result)?.result;
  const pct = progress?.total ? Math.min(100, (progress.progress / progress.total) * 100) : undefined;
  return (
    <article
      className={`card phase-${phase}`}
      data-testid="call-card"
      data-phase={phase}
      aria-label={`Call of ${card.friendlyName}`}
    >
      <header className="card-head">
        <strong>{card.friendlyName}</strong>
        <span className="muted">
          {card.server} / {card.tool}
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
      {last?.error && (
        <div className="error-note" role="alert">
          <strong>{last.error.message}</strong>
          {last.error.hint && <p className="hint">{last.error.hint}</p>}
        </div>
      )}
      {card.arguments && (
        <details>
          <summary>{card.edited ? 'Arguments (edited by you before approval)' : 'Arguments'}</summary>
          <pre>{JSON.stringify(card.arguments, null, 2)}</pre>
        </details>
      )}
      {result && <ResultView result={result} label={card.tool} />}
    </article>
  );
}
