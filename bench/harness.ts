/**
 * The benchmark output contract (docs/architecture.md#benchmarks): one JSON line per metric on stdout.
 * `ratio` > 1 means better than the baseline; for lower-is-better units it is baseline ÷ value.
 */
export interface BenchLine {
  bench: string;
  metric: string;
  unit: string;
  value: number;
  baseline: number | null;
  ratio: number | null;
  /** Extra fields a bench may add (e.g. `modelCalls`). */
  [extra: string]: unknown;
}

export interface Bench {
  name: string;
  /** Runs the bench; returns its lines, or a reason to skip (a missing tool). */
  run(): Promise<BenchLine[] | { skipped: string }>;
}

const lowerIsBetter = new Set(['ms', 'bytes', 'MB', 'tokens', 's', 'us']);

/** Builds a line, computing the ratio from the unit's direction. */
export function line(
  bench: string,
  metric: string,
  unit: string,
  value: number,
  baseline: number | null,
  extra: Record<string, unknown> = {},
): BenchLine {
  let ratio: number | null = null;
  if (baseline !== null && value > 0 && baseline > 0) {
    ratio = lowerIsBetter.has(unit) ? baseline / value : value / baseline;
    ratio = Math.round(ratio * 1000) / 1000;
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { bench, metric, unit, value: round(value), baseline: baseline === null ? null : round(baseline), ratio, ...extra };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
