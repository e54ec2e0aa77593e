// The table `npm run bench` prints and the JSON it writes (README, "Performance").
import { cpus, loadavg } from 'node:os';
import { ratio } from './stats';

export interface Row {
  suite: string;
  metric: string;
  /** Mooring's figure, with its unit. */
  value: number;
  unit: string;
  /** What it is compared against in the same run ("raw SDK", "floor", or "target"). */
  baselineName: string;
  baseline: number;
  /** value / baseline. */
  ratio: number;
  /** The target, as text ("≤ 1.10×"), when there is one. */
  target?: string;
  /** Whether the target is met; undefined when there is none. */
  met?: boolean;
  note?: string;
}

/**
 * A row comparing `value` with `baseline`, both shown rounded to `digits` decimals; the ratio is taken
 * from the figures as measured.
 */
export function comparedRow(r: Omit<Row, 'ratio'>, digits = 1): Row {
  const round = (v: number) => Math.round(v * 10 ** digits) / 10 ** digits;
  return { ...r, value: round(r.value), baseline: round(r.baseline), ratio: ratio(r.value, r.baseline) };
}

export interface SuiteResult {
  rows: Row[];
  /** Raw percentiles and anything else worth keeping, written to latest.json. */
  raw: Record<string, unknown>;
}

export interface SuiteContext {
  quick: boolean;
  log: (text: string) => void;
}

export function machineInfo() {
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    loadavg: loadavg().map((l) => Math.round(l * 100) / 100),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

const fmt = (v: number): string =>
  !Number.isFinite(v)
    ? String(v)
    : Math.abs(v) >= 100
      ? v.toFixed(0)
      : Math.abs(v) >= 10
        ? v.toFixed(1)
        : v.toFixed(2);

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((r) => r[c]!.length)));
  return cells
    .map((r) =>
      r
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A plain-text table (also valid Markdown when `markdown` is set, for the README). */
export function renderTable(rows: Row[], markdown = false): string {
  const head = ['suite', 'metric', 'Mooring', 'baseline', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.suite,
    r.metric,
    Number.isNaN(r.value) ? 'refused*' : `${fmt(r.value)} ${r.unit}`,
    `${fmt(r.baseline)} ${r.unit} (${r.baselineName})`,
    Number.isNaN(r.ratio) ? '—' : r.ratio < 0.01 ? `${r.ratio.toExponential(1)}×` : `${r.ratio.toFixed(2)}×`,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  // One line per distinct note, naming every row it belongs to.
  const byNote = new Map<string, string[]>();
  for (const r of rows)
    if (r.note) byNote.set(r.note, [...(byNote.get(r.note) ?? []), `${r.suite}, ${r.metric}`]);
  const notes = [...byNote].map(([note, where]) => `* ${[...new Set(where)].join('; ')}: ${note}`);
  const tail = notes.length ? `\n\n${notes.join('\n')}` : '';
  if (!markdown) return pad([head, head.map((h) => '-'.repeat(h.length)), ...body]) + tail;
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n') + tail;
}
