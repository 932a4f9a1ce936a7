/**
 * Closed-loop load: run `count` operations with at most `concurrency` in
 * flight (a new one starts as soon as one finishes), timing each.
 *
 * @module
 */

/** Outcome of {@link runLoad}. */
export interface LoadResult {
  /** Wall time from the first start to the last finish, ms. */
  elapsedMs: number;
  /** Each operation's latency, ms, in completion order. */
  latencies: number[];
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  /** Operations in flight at once (default 1). */
  concurrency?: number;
  /** Untimed operations run first at the same concurrency (default 0). */
  warmup?: number;
  /**
   * Called right before the first timed operation starts and right after the
   * last one finished (e.g. to read processes' CPU time over the timed part).
   */
  onTimed?: (phase: "start" | "end") => void;
}

/**
 * Run `op(index)` `count` times (after `warmup` untimed runs), at most
 * `concurrency` at once. Rejects with the first operation's failure.
 *
 * @example
 * ```ts
 * import { runLoad } from "./load.ts";
 * const result = await runLoad(() => Promise.resolve(), 10, { concurrency: 4 });
 * console.assert(result.latencies.length === 10);
 * ```
 */
export async function runLoad(
  op: (index: number) => Promise<unknown>,
  count: number,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`Concurrency must be a positive integer: ${concurrency}`);
  }
  if ((options.warmup ?? 0) > 0) await drive(op, options.warmup!, concurrency, []);
  const latencies: number[] = [];
  options.onTimed?.("start");
  const start = performance.now();
  await drive(op, count, concurrency, latencies);
  const elapsedMs = performance.now() - start;
  options.onTimed?.("end");
  return { elapsedMs, latencies };
}

async function drive(
  op: (index: number) => Promise<unknown>,
  count: number,
  concurrency: number,
  latencies: number[],
): Promise<void> {
  let next = 0;
  async function lane(): Promise<void> {
    while (next < count) {
      const index = next++;
      const t0 = performance.now();
      await op(index);
      latencies.push(performance.now() - t0);
    }
  }
  const lanes: Promise<void>[] = [];
  for (let i = 0; i < Math.min(concurrency, count); i++) lanes.push(lane());
  await Promise.all(lanes);
}
