// One schedule's runs, newest first: when, how it started, its outcome, what it said, what was refused, and
// its conversation. Everything here came from a model or a server: shown as text only.
import { useQuery } from '@tanstack/react-query';
import type { RunOutcome } from '@shared/schedules';
import { useTRPC } from '../../api/trpc';
import { ErrorNote } from '../../components/ErrorNote';
import { Badge, Button, type Tone } from '../../ui';

const TONES: Record<RunOutcome, Tone> = {
  running: 'accent',
  done: 'success',
  failed: 'danger',
  'timed-out': 'danger',
  cancelled: 'warning',
  skipped: 'neutral',
};

const TRIGGERS = { schedule: 'on time', missed: 'missed, run at start', manual: 'run by hand' } as const;

export const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function OutcomeBadge({ outcome }: { outcome: RunOutcome }) {
  return (
    <Badge tone={TONES[outcome]} data-testid="run-outcome">
      {outcome}
    </Badge>
  );
}

export function RunHistory({ id, onOpen }: { id: string; onOpen: (conversationId: string) => void }) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.schedules.history.queryOptions({ id }));
  if (runs.error) return <ErrorNote error={runs.error} />;
  if (!runs.data) return null;
  if (runs.data.length === 0) return <p className="muted small">It has not run yet.</p>;
  return (
    <ol className="plain run-history" aria-label="Runs" data-testid="run-history">
      {runs.data.map((r) => (
        <li key={r.id} className="run-row">
          <span className="run-when">{when(r.startedAt)}</span>
          <OutcomeBadge outcome={r.outcome} />
          <span className="muted small">{TRIGGERS[r.trigger]}</span>
          <span className="run-summary">{r.summary}</span>
          {r.refusals.length > 0 && (
            <span className="small" title={r.refusals.map((x) => `${x.tool}: ${x.reason}`).join('\n')}>
              {r.refusals.length} refused: {[...new Set(r.refusals.map((x) => x.tool))].join(', ')}
            </span>
          )}
          {r.conversationId && (
            <Button size="sm" variant="ghost" onClick={() => onOpen(r.conversationId!)}>
              Open conversation
            </Button>
          )}
        </li>
      ))}
    </ol>
  );
}
