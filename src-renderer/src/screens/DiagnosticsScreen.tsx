// Diagnostics: per server, calls, error rate, p50/p95 latency over time, and the reconnect history. One
// card per server (a table of eight columns overflowed at 1280 px); the history lists each state change
// with the reason the session gave at that moment.
import { useQuery } from '@tanstack/react-query';
import { Activity } from 'lucide-react';
import type { MetricsSample } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { StateBadge } from '../components/StateBadge';
import { Card, EmptyState, PageHeader } from '../ui';
import { titleOf } from '../shell/screens';

/** A small SVG line chart of p50 and p95 (no chart library needed for two lines). */
function LatencyChart({ samples }: { samples: MetricsSample[] }) {
  const pts = samples.filter((s) => s.p50Ms !== null);
  // The legend comes with the chart: with no lines yet, "p50 p95" would name nothing.
  if (pts.length < 2)
    return (
      <span className="muted small" data-testid="diag-no-chart">
        Not enough calls for a latency chart yet.
      </span>
    );
  const w = 260;
  const h = 56;
  const max = Math.max(...pts.map((s) => s.p95Ms ?? s.p50Ms ?? 0), 1);
  const line = (get: (s: MetricsSample) => number | null) =>
    pts
      .map(
        (s, i) =>
          `${((i / (pts.length - 1)) * w).toFixed(1)},${(h - ((get(s) ?? 0) / max) * (h - 4) - 2).toFixed(1)}`,
      )
      .join(' ');
  return (
    <>
      <div className="chart-legend small muted" data-testid="diag-legend">
        <span className="key p50" /> p50 <span className="key p95" /> p95
      </div>
      <svg
        viewBox={`0 0 ${w} ${h}`}
        width="100%"
        height={h}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Latency over ${pts.length} samples, up to ${max.toFixed(1)} ms`}
        className="chart"
      >
        <polyline
          points={line((s) => s.p95Ms)}
          className="p95"
          fill="none"
          vectorEffect="non-scaling-stroke"
        />
        <polyline
          points={line((s) => s.p50Ms)}
          className="p50"
          fill="none"
          vectorEffect="non-scaling-stroke"
        />
      </svg>
    </>
  );
}

const ms = (v: number | null) => (v === null ? '–' : `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`);

export function DiagnosticsScreen() {
  const trpc = useTRPC();
  const diag = useQuery({ ...trpc.diagnostics.queryOptions(), refetchInterval: 5000 });
  return (
    <section aria-labelledby="diag-title">
      <PageHeader
        id="diag-title"
        title={titleOf('diagnostics')}
        description="How each running server behaves: calls, errors, latency and reconnects since Mooring started."
      />
      {diag.data?.length === 0 && (
        <EmptyState
          icon={<Activity size={24} />}
          title="No server sessions are running"
          cli="mooring mcp test NAME --json"
        >
          <p>Enable a server on the Servers screen; its figures appear here as the model calls its tools.</p>
        </EmptyState>
      )}
      <ul className="plain list diag-list" data-testid="diagnostics">
        {(diag.data ?? []).map(({ status, history }) => (
          <li
            key={status.name}
            aria-label={`Diagnostics of ${status.name}`}
            data-testid={`diag-${status.name}`}
          >
            <Card>
              <div className="diag-head">
                <h3 className="diag-name">{status.name}</h3>
                <StateBadge status={status} enabled />
              </div>
              <div className="diag-grid">
                <dl className="stats">
                  <div>
                    <dt>Calls</dt>
                    <dd>{status.metrics.calls}</dd>
                  </div>
                  <div>
                    <dt>Error rate</dt>
                    <dd>
                      {status.metrics.calls
                        ? `${((status.metrics.errors / status.metrics.calls) * 100).toFixed(1)}%`
                        : '–'}
                    </dd>
                  </div>
                  <div>
                    <dt>p50</dt>
                    <dd>{ms(status.metrics.p50Ms)}</dd>
                  </div>
                  <div>
                    <dt>p95</dt>
                    <dd>{ms(status.metrics.p95Ms)}</dd>
                  </div>
                  <div>
                    <dt>Reconnects</dt>
                    <dd>{status.metrics.reconnects}</dd>
                  </div>
                </dl>
                <div className="diag-chart">
                  <LatencyChart samples={history.samples} />
                </div>
              </div>
              <details className="diag-history">
                <summary className="small">History ({history.transitions.length})</summary>
                <ol className="small">
                  {history.transitions.map((t, i) => (
                    <li key={i}>
                      <time>{new Date(t.at).toLocaleTimeString()}</time> {t.state}
                      {t.attempt ? ` ${t.attempt}/${t.maxAttempts ?? 5}` : ''}
                      {t.error ? <span className="muted">: {t.error.split('\n')[0]}</span> : ''}
                    </li>
                  ))}
                </ol>
              </details>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
