/**
 * Summary statistics for benchmark samples: nearest-rank percentiles,
 * throughput, ratios against a target, and number formatting for the table.
 *
 * @module
 */

/** Latency summary of one measurement, milliseconds. */
export interface LatencySummary {
  /** Number of samples. */
  count: number;
  /** Median (nearest rank). */
  p50: number;
  /** 99th percentile (nearest rank). */
  p99: number;
  /** Arithmetic mean. */
  mean: number;
  /** Smallest sample. */
  min: number;
  /** Largest sample. */
  max: number;
}

/**
 * Nearest-rank percentile of `samples` (unsorted; not modified): the
 * smallest sample such that at least `p` percent of the samples are less
 * than or equal to it. Throws `RangeError` for an empty list or `p` outside
 * (0, 100].
 *
 * @example
 * ```ts
 * import { percentile } from "./stats.ts";
 * console.assert(percentile([3, 1, 2, 4], 50) === 2);
 * console.assert(percentile([3, 1, 2, 4], 99) === 4);
 * ```
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError("Percentile of no samples");
  if (!(p > 0 && p <= 100)) throw new RangeError(`Percentile must be in (0, 100]: ${p}`);
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

/**
 * Summarize latency samples. Throws `RangeError` for an empty list.
 *
 * @example
 * ```ts
 * import { summarize } from "./stats.ts";
 * const s = summarize([1, 2, 3, 4]);
 * console.assert(s.p50 === 2 && s.mean === 2.5 && s.max === 4);
 * ```
 */
export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) throw new RangeError("Summary of no samples");
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50: at(50),
    p99: at(99),
    mean: sum / sorted.length,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
  };
}

/**
 * Operations per second: `count` operations in `elapsedMs` milliseconds.
 * Throws `RangeError` when `elapsedMs` is not positive.
 */
export function perSecond(count: number, elapsedMs: number): number {
  if (!(elapsedMs > 0)) throw new RangeError(`Elapsed time must be positive: ${elapsedMs}`);
  return (count * 1000) / elapsedMs;
}

/** Megabytes (10^6 bytes) per second for `count` results of `bytes` each in `elapsedMs`. */
export function megabytesPerSecond(count: number, bytes: number, elapsedMs: number): number {
  return perSecond(count * bytes, elapsedMs) / 1e6;
}

/** Relative change from `start` to `end` in percent (`end` 5% above `start` → 5). */
export function percentChange(start: number, end: number): number {
  if (!(start > 0)) throw new RangeError(`Start must be positive: ${start}`);
  return ((end - start) / start) * 100;
}

/** A ratio checked against a target. */
export interface Verdict {
  /** The measured ratio. */
  ratio: number;
  /** Whether the ratio meets the target. */
  pass: boolean;
}

/**
 * Compare `ratio` with `target`: `atLeast` passes when `ratio >= target`,
 * `atMost` when `ratio <= target`. A non-finite ratio never passes.
 *
 * @example
 * ```ts
 * import { verdict } from "./stats.ts";
 * console.assert(verdict(1.6, { atLeast: 1.5 }).pass);
 * console.assert(!verdict(0.7, { atMost: 0.6 }).pass);
 * ```
 */
export function verdict(
  ratio: number,
  target: { atLeast: number } | { atMost: number },
): Verdict {
  if (!Number.isFinite(ratio)) return { ratio, pass: false };
  const pass = "atLeast" in target ? ratio >= target.atLeast : ratio <= target.atMost;
  return { ratio, pass };
}

/**
 * Format a number for the table: three significant digits, thousands
 * grouped for values of 1,000 and more, `n/a` for a missing value.
 *
 * @example
 * ```ts
 * import { formatNumber } from "./stats.ts";
 * console.assert(formatNumber(12345.6) === "12,346");
 * console.assert(formatNumber(0.12345) === "0.123");
 * console.assert(formatNumber(undefined) === "n/a");
 * ```
 */
export function formatNumber(value: number | undefined | null): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return "n/a";
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}
