/**
 * The numbers of a report: totals by outcome, slowest items, tool calls by
 * tool (error rate, p50/p95 durations), failed items and a duration
 * histogram. Pure functions over {@link LoadedBatch}.
 *
 * @module
 */

import type { LoadedBatch, ReportItem } from "./load.ts";

/** Statistics of one tool. */
export interface ToolStats {
  /** Tool name. */
  name: string;
  /** Calls with a result. */
  calls: number;
  /** Results with outcome `error`. */
  errors: number;
  /** Results with outcome `cancelled`. */
  cancelled: number;
  /** `errors / calls`. */
  errorRate: number;
  /** Median duration, ms. */
  p50Ms: number;
  /** 95th percentile duration, ms. */
  p95Ms: number;
  /** Longest duration, ms. */
  maxMs: number;
}

/** One histogram bucket: items with `fromMs <= duration < toMs`. */
export interface Bucket {
  /** Lower bound, ms. */
  fromMs: number;
  /** Upper bound (exclusive), ms. */
  toMs: number;
  /** Items in the bucket. */
  count: number;
}

/** Everything a report shows. */
export interface ReportStats {
  /** Items in total. */
  total: number;
  /**
   * Items by result ({@link OUTCOMES}, all five present): `completed` is a completed turn with
   * exit code 0, `completed, exit ≠ 0` a completed turn that exited otherwise (tool errors under
   * `--fail-on-tool-error`, lost summaries); the others are the turn's outcome.
   */
  outcomes: Record<string, number>;
  /** Items that succeeded ({@link succeeded}): the `completed` row. */
  succeeded: number;
  /** Sum of item durations, ms. */
  itemTimeMs: number;
  /** Median and 95th percentile item duration, ms. */
  p50Ms: number;
  /** 95th percentile item duration, ms. */
  p95Ms: number;
  /** The slowest items, slowest first (at most `slowest` of them). */
  slowest: ReportItem[];
  /** Tool statistics by name. */
  tools: ToolStats[];
  /** Items that did not succeed ({@link succeeded}), by id: every row but `completed`. */
  failed: ReportItem[];
  /** Items by the backend that served them (`host.ready`'s `backend.kind`, or `unknown`). */
  backends: Record<string, number>;
  /** Item duration histogram. */
  histogram: Bucket[];
}

/**
 * Nearest-rank percentile `p` (0..100) of `values`; 0 for none.
 *
 * @example
 * ```ts
 * import { percentile } from "./stats.ts";
 * console.assert(percentile([1, 2, 3, 4], 50) === 2 && percentile([1, 2, 3, 4], 95) === 4);
 * ```
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** Results in display order: the rows of the outcome table and chart. */
export const OUTCOMES = [
  "completed",
  "completed, exit ≠ 0",
  "failed",
  "cancelled",
  "error",
] as const;

/**
 * The one definition of success of a report (its headline, outcome rows and failed list): the
 * turn completed and the item's exit code is 0, as `batch` counts it.
 */
export function succeeded(item: Pick<ReportItem, "outcome" | "exit_code">): boolean {
  return item.outcome === "completed" && item.exit_code === 0;
}

/** The {@link OUTCOMES} row of `item`. */
export function resultOf(item: Pick<ReportItem, "outcome" | "exit_code">): string {
  if (item.outcome === "completed") return succeeded(item) ? "completed" : "completed, exit ≠ 0";
  return item.outcome;
}

/** Histogram of `values` in at most `buckets` equal-width buckets. */
export function histogram(values: readonly number[], buckets = 12): Bucket[] {
  if (values.length === 0) return [];
  const max = Math.max(...values);
  const width = Math.max(1, Math.ceil((max + 1) / buckets));
  const out: Bucket[] = [];
  for (let i = 0; i < buckets && i * width <= max; i++) {
    out.push({ fromMs: i * width, toMs: (i + 1) * width, count: 0 });
  }
  for (const value of values) out[Math.min(out.length - 1, Math.floor(value / width))]!.count++;
  return out;
}

/** Compute the statistics of `batch`. */
export function computeStats(batch: LoadedBatch, options: { slowest?: number } = {}): ReportStats {
  const outcomes: Record<string, number> = Object.fromEntries(OUTCOMES.map((o) => [o, 0]));
  const backends: Record<string, number> = {};
  for (const item of batch.items) {
    const result = resultOf(item);
    outcomes[result] = (outcomes[result] ?? 0) + 1;
    const backend = item.backend ?? "unknown";
    backends[backend] = (backends[backend] ?? 0) + 1;
  }
  const durations = batch.items.map((i) => i.duration_ms);
  const byTool = new Map<string, { durations: number[]; errors: number; cancelled: number }>();
  for (const item of batch.items) {
    for (const call of item.calls) {
      let tool = byTool.get(call.name);
      if (tool === undefined) {
        tool = { durations: [], errors: 0, cancelled: 0 };
        byTool.set(call.name, tool);
      }
      tool.durations.push(call.durationMs);
      if (call.outcome === "error") tool.errors++;
      if (call.outcome === "cancelled") tool.cancelled++;
    }
  }
  const tools: ToolStats[] = [...byTool.entries()].map(([name, t]) => ({
    name,
    calls: t.durations.length,
    errors: t.errors,
    cancelled: t.cancelled,
    errorRate: t.durations.length === 0 ? 0 : t.errors / t.durations.length,
    p50Ms: percentile(t.durations, 50),
    p95Ms: percentile(t.durations, 95),
    maxMs: Math.max(0, ...t.durations),
  })).sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : 1));
  return {
    total: batch.items.length,
    outcomes,
    succeeded: batch.items.filter(succeeded).length,
    itemTimeMs: durations.reduce((a, b) => a + b, 0),
    p50Ms: percentile(durations, 50),
    p95Ms: percentile(durations, 95),
    slowest: [...batch.items].sort((a, b) => b.duration_ms - a.duration_ms).slice(
      0,
      options.slowest ?? 10,
    ),
    tools,
    failed: batch.items.filter((i) => !succeeded(i)),
    backends,
    histogram: histogram(durations),
  };
}
