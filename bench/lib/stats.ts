// Numbers for the benchmark table: percentiles over raw samples, ratios, and rounds that
// interleave the contenders so machine noise (2 shared cores) hits every one of them alike.

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
function rank(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 1000) / 1000;
  return {
    n: s.length,
    p50: round(rank(s, 50)),
    p90: round(rank(s, 90)),
    p99: round(rank(s, 99)),
    min: round(s[0] ?? Number.NaN),
    max: round(s[s.length - 1] ?? Number.NaN),
    mean: round(s.reduce((a, b) => a + b, 0) / (s.length || 1)),
  };
}

export const ratio = (value: number, baseline: number): number => Math.round((value / baseline) * 100) / 100;

/** The contenders in a different order each round, so none always runs first (or last) in a round. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Runs `n` calls with at most `inFlight` outstanding; returns per-call latencies and the wall time. */
export async function runConcurrent(
  n: number,
  inFlight: number,
  call: () => Promise<void>,
): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      await call();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, worker));
  return { latencies, wallMs: performance.now() - started };
}

export async function timeIt<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
