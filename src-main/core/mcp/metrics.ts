// Per-server call metrics: calls, errors, p50/p95 over a recent window, reconnects.
import type { ServerMetrics } from '@shared/session';

const WINDOW = 512;

export class SessionMetrics {
  private latencies: number[] = [];
  private next = 0;
  calls = 0;
  errors = 0;
  reconnects = 0;

  record(ms: number, ok: boolean): void {
    this.calls++;
    if (!ok) this.errors++;
    if (this.latencies.length < WINDOW) this.latencies.push(ms);
    else this.latencies[this.next] = ms;
    this.next = (this.next + 1) % WINDOW;
  }

  snapshot(): ServerMetrics {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const pct = (p: number) =>
      sorted.length
        ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100
        : null;
    return {
      calls: this.calls,
      errors: this.errors,
      p50Ms: pct(0.5),
      p95Ms: pct(0.95),
      reconnects: this.reconnects,
    };
  }
}
