// Reconnect history for Diagnostics: each server's state transitions, bounded per server,
// plus a latency sample each time the metrics change, so the UI can draw p50/p95 over time.
import type { SessionStatus } from '@shared/session';
import type { ServerHistory } from '@shared/wire';

const MAX_ENTRIES = 200;

export class StatusHistory {
  private readonly byServer = new Map<string, ServerHistory>();

  record(s: SessionStatus, at = Date.now()): void {
    let h = this.byServer.get(s.name);
    if (!h) this.byServer.set(s.name, (h = { transitions: [], samples: [] }));
    const last = h.transitions.at(-1);
    if (!last || last.state !== s.state || last.attempt !== s.attempt) {
      h.transitions.push({
        at,
        state: s.state,
        ...(s.attempt !== undefined ? { attempt: s.attempt } : {}),
        ...(s.maxAttempts !== undefined ? { maxAttempts: s.maxAttempts } : {}),
        ...(s.error ? { error: s.error.message } : {}),
      });
      if (h.transitions.length > MAX_ENTRIES) h.transitions.shift();
    }
    const m = s.metrics;
    const prev = h.samples.at(-1);
    if (!prev || prev.calls !== m.calls || prev.errors !== m.errors) {
      h.samples.push({ at, calls: m.calls, errors: m.errors, p50Ms: m.p50Ms, p95Ms: m.p95Ms });
      if (h.samples.length > MAX_ENTRIES) h.samples.shift();
    }
  }

  get(server: string): ServerHistory {
    return this.byServer.get(server) ?? { transitions: [], samples: [] };
  }
}
