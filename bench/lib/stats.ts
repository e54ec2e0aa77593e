// Numbers for the benchmark table (README, "Performance"): percentiles over raw samples, ratios, and rounds
// that interleave the contenders so machine noise (2 shared cores) hits every one of them alike.

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

/** One contender of a latency suite: a name and one call. */
export interface Contender<N extends string = string> {
  name: N;
  call: () => Promise<void>;
}

/** Each contender's samples from `measureRounds`, by name. */
export interface RoundSamples {
  /** Sequential latencies (ms). */
  seq: Record<string, number[]>;
  /** Latencies (ms) with `inFlight` calls at once. */
  conc: Record<string, number[]>;
  /** Calls per second with `inFlight` at once, one value per round. */
  rates: Record<string, number[]>;
}

/**
 * The contenders warmed up, then measured in interleaved rounds (sequential, then `inFlight` at once), the
 * order rotating each round so machine noise hits all of them alike.
 */
export async function measureRounds(
  contenders: readonly Contender[],
  opts: {
    rounds: number;
    warmup: number;
    seqPerRound: number;
    concPerRound: number;
    inFlight: number;
    log: (line: string) => void;
    label: string;
  },
): Promise<RoundSamples> {
  for (const c of contenders) for (let i = 0; i < opts.warmup; i++) await c.call();
  const empty = () => Object.fromEntries(contenders.map((c) => [c.name, [] as number[]]));
  const out: RoundSamples = { seq: empty(), conc: empty(), rates: empty() };
  for (let r = 0; r < opts.rounds; r++) {
    for (const c of rotated(contenders, r))
      for (let i = 0; i < opts.seqPerRound; i++) {
        const t = performance.now();
        await c.call();
        out.seq[c.name]!.push(performance.now() - t);
      }
    for (const c of rotated(contenders, r + 1)) {
      const { latencies, wallMs } = await runConcurrent(opts.concPerRound, opts.inFlight, c.call);
      out.conc[c.name]!.push(...latencies);
      out.rates[c.name]!.push((opts.concPerRound / wallMs) * 1000);
    }
    opts.log(`${opts.label} round ${r + 1}/${opts.rounds} done`);
  }
  return out;
}

/**
 * Each contender's sequential and in-flight latency percentiles, and its throughput: the median of its
 * rounds (one slow round does not decide it).
 */
export function summarizeRounds(samples: RoundSamples): {
  seq: Record<string, Summary>;
  conc: Record<string, Summary>;
  rate: Record<string, number>;
} {
  const each = <T>(r: Record<string, number[]>, f: (v: number[]) => T) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, f(v)]));
  return {
    seq: each(samples.seq, summarize),
    conc: each(samples.conc, summarize),
    rate: each(samples.rates, (v) => summarize(v).p50),
  };
}
