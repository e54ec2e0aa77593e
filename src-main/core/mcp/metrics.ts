// Per-server metrics: tool calls (calls, errors, p50/p95 over a recent window), every other request Mooring
// sent by method (requestHandler.ts), reconnects.
import type { ServerMetrics } from '@shared/session';

const WINDOW = 512;

export class SessionMetrics {
  private latencies: number[] = [];
  private next = 0;
  calls = 0;
  errors = 0;
  reconnects = 0;
  private readonly requests: Record<string, { calls: number; errors: number }> = {};

  /** One request that is not a tool call (prompts/get, resources/read, tasks/get, tools/list, …). */
  count(method: string, ok: boolean): void {
    const r = (this.requests[method] ??= { calls: 0, errors: 0 });
    r.calls++;
    if (!ok) r.errors++;
  }

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
      ...(Object.keys(this.requests).length ? { requests: structuredClone(this.requests) } : {}),
    };
  }
}
