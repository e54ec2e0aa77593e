// Diagnostics (issue 5): per server calls, error rate, p50/p95 latency over time, reconnect history.
import { useQuery } from '@tanstack/react-query';
import type { MetricsSample } from '@shared/wire';
import { useTRPC } from '../api/trpc';
import { stateText } from '../components/StateBadge';

/** A tiny SVG line chart of p50 and p95 (no chart library needed for two lines). */
function LatencyChart({ samples }: { samples: MetricsSample[] }) {
  const pts = samples.filter((s) => s.p50Ms !== null);
  if (pts.length < 2) return <span className="muted small">not enough calls for a chart</span>;
  const w = 220;
  const h = 48;
  const max = Math.max(...pts.map((s) => s.p95Ms ?? s.p50Ms ?? 0), 1);
  const line = (get: (s: MetricsSample) => number | null) =>
    pts
      .map(
        (s, i) =>
          `${((i / (pts.length - 1)) * w).toFixed(1)},${(h - ((get(s) ?? 0) / max) * (h - 4) - 2).toFixed(1)}`,
      )
      .join(' ');
  return (
    <svg
      width={w}
      height={h}
      role="img"
      aria-label={`Latency over ${pts.length} samples, up to ${max.toFixed(1)} ms`}
      className="chart"
    >
      <polyline points={line((s) => s.p95Ms)} className="p95" fill="none" />
      <polyline points={line((s) => s.p50Ms)} className="p50" fill="none" />
    </svg>
  );
}

const ms = (v: number | null) => (v === null ? '–' : `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`);

export function DiagnosticsScreen() {
  const trpc = useTRPC();
  const diag = useQuery({ ...trpc.diagnostics.queryOptions(), refetchInterval: 5000 });
  return (
    <section aria-labelledby="diag-title">
      <header className="screen-head">
        <div>
          <p className="crumbs">Settings</p>
          <h1 id="diag-title">Diagnostics</h1>
        </div>
      </header>
      {diag.data?.length === 0 && <p className="muted">No server sessions are running.</p>}
      <table className="diag" data-testid="diagnostics">
        <thead>
          <tr>
            <th scope="col">Server</th>
            <th scope="col">State</th>
            <th scope="col">Calls</th>
            <th scope="col">Error rate</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
            <th scope="col">Reconnects</th>
            <th scope="col">Latency (p50 blue, p95 orange)</th>
          </tr>
        </thead>
        <tbody>
          {(diag.data ?? []).map(({ status, history }) => (
            <tr key={status.name}>
              <th scope="row">{status.name}</th>
              <td>{stateText(status, true)}</td>
              <td>{status.metrics.calls}</td>
              <td>
                {status.metrics.calls
                  ? `${((status.metrics.errors / status.metrics.calls) * 100).toFixed(1)}%`
                  : '–'}
              </td>
              <td>{ms(status.metrics.p50Ms)}</td>
              <td>{ms(status.metrics.p95Ms)}</td>
              <td>
                {status.metrics.reconnects}
                <details>
                  <summary className="small">history</summary>
                  <ol className="small">
                    {history.transitions.map((t, i) => (
                      <li key={i}>
                        {new Date(t.at).toLocaleTimeString()} {t.state}
                        {t.attempt ? ` ${t.attempt}/${t.maxAttempts ?? 5}` : ''}
                        {t.error ? `: ${t.error}` : ''}
                      </li>
                    ))}
                  </ol>
                </details>
              </td>
              <td>
                <LatencyChart samples={history.samples} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
