/**
 * The Node.js column's share of the benchmark harness, in plain JavaScript
 * (Node.js 20 runs no TypeScript): result sizes and texts, closed-loop load
 * and the latency summary. Each function mirrors its TypeScript original in
 * `bench/harness/` (`payloads.ts`, `load.ts`, `stats.ts`);
 * `tests/bench/node_harness_test.ts` checks that they agree.
 *
 * @module
 */

/** Result sizes by benchmark tool name, UTF-8 bytes (ASCII text); as `payloads.ts`. */
export const RESULT_BYTES = Object.freeze({
  trivial: 5,
  blob_60k: 60 * 1024,
  blob_1m: 1024 * 1024,
});

/**
 * ASCII text of exactly `bytes` bytes (`"hello"` for 5, else a repeated
 * pattern); as `payloadText` in `payloads.ts`.
 *
 * @param {number} bytes
 * @returns {string}
 */
export function payloadText(bytes) {
  if (bytes === 5) return "hello";
  const unit = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

/**
 * A generated tool's description; as `generatedDescription` in `payloads.ts`.
 *
 * @param {number} index
 * @returns {string}
 */
export function generatedDescription(index) {
  return `Benchmark tool number ${index}: looks up one record by key and returns it as text.`;
}

/**
 * Run `op(index)` `count` times (after `warmup` untimed runs), at most
 * `concurrency` at once; as `runLoad` in `load.ts`.
 *
 * @param {(index: number) => Promise<unknown>} op
 * @param {number} count
 * @param {{ concurrency?: number, warmup?: number, onTimed?: (phase: "start" | "end") => void }} [options]
 * @returns {Promise<{ elapsedMs: number, latencies: number[] }>}
 */
export async function runLoad(op, count, options = {}) {
  const concurrency = options.concurrency ?? 1;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`Concurrency must be a positive integer: ${concurrency}`);
  }
  const warmup = options.warmup ?? 0;
  if (warmup > 0) await drive(op, warmup, concurrency, []);
  /** @type {number[]} */
  const latencies = [];
  options.onTimed?.("start");
  const start = performance.now();
  await drive(op, count, concurrency, latencies);
  const elapsedMs = performance.now() - start;
  options.onTimed?.("end");
  return { elapsedMs, latencies };
}

/**
 * @param {(index: number) => Promise<unknown>} op
 * @param {number} count
 * @param {number} concurrency
 * @param {number[]} latencies
 */
async function drive(op, count, concurrency, latencies) {
  let next = 0;
  async function lane() {
    while (next < count) {
      const index = next++;
      const t0 = performance.now();
      await op(index);
      latencies.push(performance.now() - t0);
    }
  }
  const lanes = [];
  for (let i = 0; i < Math.min(concurrency, count); i++) lanes.push(lane());
  await Promise.all(lanes);
}

/**
 * Summarize latency samples (nearest-rank p50/p99, mean, min, max); as
 * `summarize` in `stats.ts`. Throws `RangeError` for an empty list.
 *
 * @param {readonly number[]} samples
 * @returns {{ count: number, p50: number, p99: number, mean: number, min: number, max: number }}
 */
export function summarize(samples) {
  if (samples.length === 0) throw new RangeError("Summary of no samples");
  const sorted = Float64Array.from(samples).sort();
  /** @param {number} p */
  const at = (p) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  let sum = 0;
  for (const value of sorted) sum += value;
  return {
    count: sorted.length,
    p50: at(50),
    p99: at(99),
    mean: sum / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/**
 * A whole positive number from the text of a flag or variable (`name`, as
 * the user spells it: `--calls`, `MCP_BENCH_TOOLS`), or a `RangeError`
 * naming it.
 *
 * @param {string} name
 * @param {string} text
 * @param {{ allowZero?: boolean }} [options]
 * @returns {number}
 */
export function countFlag(name, text, options = {}) {
  const value = Number(text);
  const min = options.allowZero ? 0 : 1;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number ≥ ${min}: ${text}`);
  }
  return value;
}

/**
 * User plus system CPU time of a process, ms, from fields 14 and 15 of a
 * `/proc/<pid>/stat` text; as `parseCpuTimeMs` in `proc_status.ts`.
 *
 * @param {string} text
 * @param {number} [ticksPerSecond]
 * @returns {number}
 */
export function parseCpuTimeMs(text, ticksPerSecond = 100) {
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isSafeInteger(utime) || !Number.isSafeInteger(stime)) {
    throw new TypeError("Process stat has no utime/stime");
  }
  return (utime + stime) * 1000 / ticksPerSecond;
}

/**
 * CPU time per timed call of each named process, µs, over the timed part of
 * a {@link runLoad}: pass `meter.onTimed` as its `onTimed`, then read
 * `meter.perCall(calls)`; as `CpuMeter` in `proc_status.ts`.
 *
 * @param {Record<string, () => number | null | undefined>} pids
 * @param {(pid: number) => string} readStat
 */
export function cpuMeter(pids, readStat) {
  /** @type {Record<string, number>} */
  const start = {};
  /** @type {Record<string, number>} */
  const spent = {};
  /** @param {number | null | undefined} pid */
  const read = (pid) => (pid == null ? NaN : parseCpuTimeMs(readStat(pid)));
  return {
    /** @param {"start" | "end"} phase */
    onTimed(phase) {
      for (const [name, pid] of Object.entries(pids)) {
        if (phase === "start") start[name] = read(pid());
        else spent[name] = read(pid()) - (start[name] ?? NaN);
      }
    },
    /**
     * @param {number} calls
     * @returns {Record<string, number>}
     */
    perCall(calls) {
      /** @type {Record<string, number>} */
      const out = {};
      for (const [name, ms] of Object.entries(spent)) {
        if (Number.isFinite(ms) && calls > 0) out[name] = ms * 1000 / calls;
      }
      return out;
    },
  };
}
