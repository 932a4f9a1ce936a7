/**
 * Before/after comparison of the host on a shared machine: runs
 * `bench/harness/host_driver.ts` alternately against two checkouts (`--base
 * DIR`, e.g. an unpacked older commit, and this one), same placement and
 * settings, and prints each run and the medians of calls/s, the host's CPU
 * time per call (µs, from `/proc/<host>/stat` over the timed calls, less
 * sensitive to other load than calls/s), spawn → `host.ready` (ms) and the
 * host's CPU time until it sent `initialize` (ms; its startup work, also
 * less sensitive to load than the wall time).
 * Rounds alternate the order (base first, then this checkout first) so that
 * load that drifts over minutes falls on both; with `--paired` both sides of a
 * round run at the same time in the same placement, so they share whatever
 * else loads the machine in those seconds (compare CPU per call then, not
 * calls/s, which halve).
 *
 * Run: `deno run -A bench/ab_host.ts --base /tmp/base --cpus 0 --calls 10000
 * --warmup 1000 --concurrency 1 --rounds 5` (`--calls 0` measures startup only;
 * `--tools DIR --tool NAME` as in the host driver; `--otel` runs this checkout's side with
 * telemetry on, so `--base .` compares telemetry on against off).
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { HostRunResult } from "./harness/host_driver.ts";

const DRIVER = new URL("./harness/host_driver.ts", import.meta.url).pathname;
const HERE = new URL("../", import.meta.url).pathname;

/** One measured run of one side. */
export interface AbSample {
  /** Timed calls per second (0 without calls). */
  callsPerSecond: number;
  /** Host CPU time per timed call, µs (0 without calls). */
  hostCpuUs: number;
  /** Spawn → `host.ready`, ms. */
  readyMs: number;
  /** The fake backend's own CPU time per timed call, µs (0 without calls). */
  backendCpuUs: number;
  /** The host's CPU time from its start to its `initialize` request, ms. */
  initCpuMs: number;
  /** The host's CPU time from its start to its `shutdown` request, ms (0 from older fixtures). */
  shutdownCpuMs: number;
}

/** Reduce a host driver result to an {@link AbSample}. */
export function sampleOf(result: HostRunResult): AbSample {
  const { calls, elapsed_ms: elapsed, host_cpu_ms: cpu, backend_cpu_ms: own } = result.backend;
  return {
    callsPerSecond: calls > 0 && elapsed > 0 ? calls / elapsed * 1000 : 0,
    hostCpuUs: calls > 0 ? cpu * 1000 / calls : 0,
    readyMs: result.ready_ms,
    backendCpuUs: calls > 0 ? own * 1000 / calls : 0,
    initCpuMs: result.backend.host_cpu_at_initialize_ms,
    shutdownCpuMs: result.backend.host_cpu_at_shutdown_ms ?? 0,
  };
}

/** Median of `values` (mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function runOnce(repo: string, cpus: string, args: readonly string[]): Promise<AbSample> {
  const output = await new Deno.Command("taskset", {
    args: ["-c", cpus, Deno.execPath(), "run", "-A", DRIVER, "--repo", repo, ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`Host driver failed for ${repo}: exit ${output.code}`);
  return sampleOf(JSON.parse(new TextDecoder().decode(output.stdout)) as HostRunResult);
}

function format(s: AbSample): string {
  return `${s.callsPerSecond.toFixed(0)} calls/s, ${s.hostCpuUs.toFixed(1)} µs host CPU/call, ` +
    `ready ${s.readyMs.toFixed(1)} ms (host CPU to initialize ${s.initCpuMs.toFixed(0)} ms, ` +
    `to shutdown ${s.shutdownCpuMs.toFixed(0)} ms; ` +
    `backend ${s.backendCpuUs.toFixed(1)} µs CPU/call)`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      base: { type: "string" },
      cpus: { type: "string", default: "0" },
      rounds: { type: "string", default: "5" },
      calls: { type: "string", default: "10000" },
      warmup: { type: "string", default: "1000" },
      concurrency: { type: "string", default: "1" },
      tools: { type: "string" },
      tool: { type: "string", default: "trivial" },
      paired: { type: "boolean", default: false },
      otel: { type: "boolean", default: false },
    },
  });
  if (values.base === undefined) {
    throw new TypeError("Missing --base DIR (the checkout to compare)");
  }
  const rounds = Number(values.rounds);
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    throw new RangeError(`--rounds must be a positive integer: ${values.rounds}`);
  }
  const args = [
    "--calls",
    values.calls,
    "--warmup",
    values.warmup,
    "--concurrency",
    values.concurrency,
    "--tool",
    values.tool,
    ...(values.tools === undefined ? [] : ["--tools", values.tools]),
  ];
  const sides = { base: values.base, new: HERE } as const;
  // --otel: this checkout's side runs with telemetry on (`--base .` then measures its cost).
  const argsOf = (side: keyof typeof sides) =>
    side === "new" && values.otel ? [...args, "--otel"] : args;
  const samples: Record<keyof typeof sides, AbSample[]> = { base: [], new: [] };
  for (let round = 0; round < rounds; round++) {
    const order: (keyof typeof sides)[] = round % 2 === 0 ? ["base", "new"] : ["new", "base"];
    if (values.paired) {
      const both = await Promise.all(
        order.map((side) => runOnce(sides[side], values.cpus, argsOf(side))),
      );
      order.forEach((side, i) => {
        samples[side].push(both[i]!);
        console.log(`round ${round + 1} ${side} (paired): ${format(both[i]!)}`);
      });
      continue;
    }
    for (const side of order) {
      const sample = await runOnce(sides[side], values.cpus, argsOf(side));
      samples[side].push(sample);
      console.log(`round ${round + 1} ${side}: ${format(sample)}`);
    }
  }
  const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
  for (const side of ["base", "new"] as const) {
    const list = samples[side];
    console.log(
      `median ${side}: ${
        format({
          callsPerSecond: median(list.map((s) => s.callsPerSecond)),
          hostCpuUs: median(list.map((s) => s.hostCpuUs)),
          readyMs: median(list.map((s) => s.readyMs)),
          backendCpuUs: median(list.map((s) => s.backendCpuUs)),
          initCpuMs: median(list.map((s) => s.initCpuMs)),
          shutdownCpuMs: median(list.map((s) => s.shutdownCpuMs)),
        })
      } (${rounds} runs)`,
    );
  }
  console.log(`load average after: ${load}`);
}
