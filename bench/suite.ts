/**
 * The benchmark plan and its execution: every measurement runs as a driver
 * process pinned with `taskset -c <cpus>` (its children inherit the
 * placement), and prints one JSON line that is collected here.
 *
 * @module
 */

import type { CallRunResult } from "./harness/call_driver.ts";
import type { HostRunResult } from "./harness/host_driver.ts";
import { generateToolDir } from "./harness/generate_tools.ts";
import { type BenchToolName, RESULT_BYTES } from "./harness/payloads.ts";
import type { LatencySummary } from "./harness/stats.ts";

const HARNESS = new URL("./harness/", import.meta.url).pathname;
const DEV_CONFIG = new URL("../dev/deno.json", import.meta.url).pathname;

/** A CPU placement: `taskset -c <cpus>`. */
export interface Placement {
  /** The `taskset -c` list. */
  cpus: string;
  /** Label for the table. */
  label: string;
}

/** The two placements every measurement runs in. */
export const PLACEMENTS: readonly Placement[] = [
  { cpus: "0", label: "1 CPU (taskset -c 0)" },
  { cpus: "0,1", label: "2 CPUs (taskset -c 0,1)" },
];

/** Iteration counts; {@link QUICK_SIZES} for a smoke run. */
export interface SuiteSizes {
  /** Timed trivial calls per round-trip measurement. */
  trivialCalls: number;
  /** Untimed calls before each round-trip measurement (trivial; a tenth for 60 KiB, 1 MiB). */
  warmup: number;
  /** Timed 60 KiB calls. */
  calls60k: number;
  /** Timed 1 MiB calls. */
  calls1m: number;
  /** Echo round trips. */
  echoCalls: number;
  /** Spawns per startup measurement (median reported). */
  startups: number;
  /** Calls of the memory test (after `rssWarmup` untimed calls). */
  rssCalls: number;
  /**
   * Untimed calls before the memory test's first RSS sample: RSS is compared from a warmed-up
   * steady state (JIT, V8 heap sizing, pools), the usual steady-state method.
   */
  rssWarmup: number;
  /** Repetitions of each throughput measurement (median reported). */
  repeats: number;
}

/** Sizes of the published run: about 8 minutes on 2 cores. */
export const FULL_SIZES: SuiteSizes = {
  trivialCalls: 3000,
  warmup: 1000,
  calls60k: 2000,
  calls1m: 150,
  echoCalls: 20000,
  startups: 7,
  rssCalls: 100_000,
  rssWarmup: 5_000,
  repeats: 3,
};

/** Sizes of a smoke run (seconds, numbers are not meaningful). */
export const QUICK_SIZES: SuiteSizes = {
  trivialCalls: 200,
  warmup: 20,
  calls60k: 20,
  calls1m: 4,
  echoCalls: 1000,
  startups: 2,
  rssCalls: 2000,
  rssWarmup: 200,
  repeats: 1,
};

/** One throughput measurement: rate and latency. */
export interface Throughput {
  /** Calls per second. */
  callsPerSec: number;
  /** Latency of each call, ms. */
  latency: LatencySummary;
  /** Result bytes per call. */
  resultBytes: number;
  /**
   * CPU time per timed call of each process of the measurement, µs (user + system from
   * `/proc/<pid>/stat` before and after the timed calls): `host` and `fixture` (the fake
   * backend) for host rows, `server` and `client` for the SDK columns, `parent` and `child`
   * for the echo. Absent in runs saved before it was measured.
   */
  cpuUs?: Record<string, number>;
}

/** Everything measured in one placement. */
export interface PlacementResults {
  /** The placement. */
  placement: Placement;
  /** Host round trips by `<tool>/<concurrency>`, e.g. `trivial/1`. */
  host: Record<string, Throughput>;
  /** Host round trips of a process-isolated trivial tool by concurrency (`1`, `4`). */
  isolated: Record<string, Throughput>;
  /**
   * The same isolated round trips with the kernel layer switched off
   * (`--no-kernel-sandbox`), measured right after each `isolated` one.
   */
  isolatedNoKernel: Record<string, Throughput>;
  /** The isolated tool's enforcement level in the default runs (`kernel+deno` on Landlock). */
  isolatedLevel: string | null;
  /**
   * The trivial inline round trips with telemetry on (`OTEL_DENO=true`, spans and metrics
   * exported to a loopback sink), by concurrency, each measured right after `host`'s
   * `trivial/<c>`. Absent in runs saved before it was measured.
   */
  telemetry?: Record<string, Throughput>;
  /** Why isolated calls were not measured, or null. */
  isolatedNote: string | null;
  /** MCP SDK round trips (server and client run with Deno), same keys. */
  mcp: Record<string, Throughput>;
  /** MCP SDK round trips with the server and client on Node.js (`bench/node/`), same keys. */
  mcpNode: Record<string, Throughput>;
  /**
   * Echo round trips by concurrency, `1` and `4`; and the I/O of a large result alone (its parts
   * and their answers, `echo_parent.ts --result-bytes`) by the host's keys, `blob_60k/4` etc.
   * (absent in runs saved before it was measured).
   */
  echo: Record<string, Throughput>;
  /** Spawn → `host.ready`, median ms, by tool count (`1`, `32`). */
  hostReadyMs: Record<string, number>;
  /** Spawn → `tools/list` done, median ms, by tool count. */
  mcpReadyMs: Record<string, number>;
  /** The same on Node.js, by tool count. */
  mcpNodeReadyMs: Record<string, number>;
  /**
   * Host peak RSS (VmHWM), KiB, by run: `startup/32`, `trivial/4`, `blob_1m/4`, and `memory`
   * (the memory test, warm-up included).
   */
  hostPeakKb: Record<string, number>;
  /**
   * The first call after `host.ready` in a fresh host (no warm-up), median ms as the
   * backend times it, by tool kind: `inline` and `isolated` (`isolation: "process"`).
   */
  coldCallMs?: Record<string, number>;
  /** `call` of the trivial tool end to end (spawn → exit of the CLI), median ms, same keys. */
  callMs?: Record<string, number>;
  /** Host RSS samples over the memory test. */
  rss: { calls: number; rss: number }[];
  /** Calls/s during the memory test. */
  rssCallsPerSec: number;
}

async function pinnedOnce(cpus: string, script: string, args: string[]): Promise<unknown> {
  const result = await new Deno.Command("taskset", {
    // The dev config: the drivers import the MCP SDK (docs/packages.md).
    args: [
      "-c",
      cpus,
      Deno.execPath(),
      "run",
      "--config",
      DEV_CONFIG,
      "-A",
      `${HARNESS}${script}`,
      ...args,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(result.stdout).trim();
  if (!result.success) throw new Error(`Benchmark driver failed: ${script} ${args.join(" ")}`);
  return JSON.parse(text.split("\n").at(-1)!);
}

/** The Node.js MCP driver (`bench/node/`, installed by `ensureNodeSdk` in `node_sdk.ts`). */
const NODE_CLIENT = new URL("./node/mcp_client.mjs", import.meta.url).pathname;

/** The Node.js MCP driver once: `taskset -c <cpus> node bench/node/mcp_client.mjs ARGS`. */
async function pinnedNodeOnce(cpus: string, args: string[]): Promise<unknown> {
  const result = await new Deno.Command("taskset", {
    args: ["-c", cpus, "node", NODE_CLIENT, ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(result.stdout).trim();
  if (!result.success) throw new Error(`Node.js MCP driver failed: ${args.join(" ")}`);
  return JSON.parse(text.split("\n").at(-1)!);
}

/**
 * Run `once`; if it fails, report it on stderr and run it again once after
 * 5 s (the tree is shared with work in progress, which can be mid-edit).
 */
async function retriedOnce(once: () => Promise<unknown>): Promise<unknown> {
  try {
    return await once();
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : error}; retrying once`);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    return await once();
  }
}

/** Run a Deno driver in `bench/harness/` pinned to `cpus`; return its JSON result (retried once). */
function pinned(cpus: string, script: string, args: string[]): Promise<unknown> {
  return retriedOnce(() => pinnedOnce(cpus, script, args));
}

/** Run the Node.js MCP driver pinned to `cpus`; return its JSON result (retried once). */
function pinnedNode(cpus: string, args: string[]): Promise<unknown> {
  return retriedOnce(() => pinnedNodeOnce(cpus, args));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function throughput(
  calls: number,
  elapsedMs: number,
  latency: LatencySummary,
  bytes: number,
  cpuUs: Record<string, number> = {},
): Throughput {
  return { callsPerSec: (calls * 1000) / elapsedMs, latency, resultBytes: bytes, cpuUs };
}

/** The host's and the fake backend's CPU per timed call, µs, from the backend's stats. */
function hostCpu(b: HostRunResult["backend"]): Record<string, number> {
  if (b.calls <= 0) return {};
  return { host: b.host_cpu_ms * 1000 / b.calls, fixture: b.backend_cpu_ms * 1000 / b.calls };
}

/** Run `once` `repeats` times; keep the run with the median rate. */
async function medianRun(repeats: number, once: () => Promise<Throughput>): Promise<Throughput> {
  const runs: Throughput[] = [];
  for (let i = 0; i < repeats; i++) runs.push(await once());
  runs.sort((a, b) => a.callsPerSec - b.callsPerSec);
  return runs[Math.floor((runs.length - 1) / 2)]!;
}

/** The JSON line of the MCP and echo drivers. */
interface DriverRun {
  calls: number;
  elapsed_ms: number;
  latency_ms: LatencySummary;
  /** Absent from drivers older than the CPU columns. */
  cpu_us_per_call?: Record<string, number>;
}

/** Progress lines go to stderr so stdout carries only the table. */
export type Progress = (line: string) => void;

/** Run every measurement in `placement`. */
export async function runPlacement(
  placement: Placement,
  sizes: SuiteSizes,
  progress: Progress,
): Promise<PlacementResults> {
  const { cpus } = placement;
  const out: PlacementResults = {
    placement,
    host: {},
    isolated: {},
    isolatedNoKernel: {},
    isolatedLevel: null,
    isolatedNote: null,
    mcp: {},
    mcpNode: {},
    echo: {},
    hostReadyMs: {},
    mcpReadyMs: {},
    mcpNodeReadyMs: {},
    hostPeakKb: {},
    telemetry: {},
    rss: [],
    rssCallsPerSec: 0,
  };
  const cases: [BenchToolName, number, number][] = [
    ["trivial", sizes.trivialCalls, sizes.warmup],
    ["blob_60k", sizes.calls60k, Math.round(sizes.warmup / 10)],
    ["blob_1m", sizes.calls1m, Math.max(2, Math.round(sizes.warmup / 100))],
  ];
  const toolDir = `${HARNESS}host_tools`;
  for (const [tool, calls, warmup] of cases) {
    for (const concurrency of [1, 4]) {
      const key = `${tool}/${concurrency}`;
      progress(`${placement.label}: host ${key}`);
      const hostRun = (otel: boolean) =>
        medianRun(sizes.repeats, async () => {
          const run = await pinned(cpus, "host_driver.ts", [
            `--tools=${toolDir}`,
            `--tool=${tool}`,
            `--calls=${calls}`,
            `--warmup=${warmup}`,
            `--concurrency=${concurrency}`,
            ...(otel ? ["--otel"] : []),
          ]) as HostRunResult;
          const b = run.backend;
          if (b.failed_calls > 0 || b.result_bytes !== RESULT_BYTES[tool] || !b.latency_ms) {
            throw new Error(
              `Host run of ${key}${otel ? " (telemetry on)" : ""} returned wrong results`,
            );
          }
          if (!otel) out.hostPeakKb[key] = Math.max(out.hostPeakKb[key] ?? 0, b.hwm_kb);
          return throughput(b.calls, b.elapsed_ms, b.latency_ms, b.result_bytes, hostCpu(b));
        });
      out.host[key] = await hostRun(false);
      if (tool === "trivial") {
        progress(`${placement.label}: host ${key}, telemetry on`);
        (out.telemetry ??= {})[String(concurrency)] = await hostRun(true);
      }
      const mcpArgs = [
        "--mode=calls",
        `--tool=${tool}`,
        `--calls=${calls}`,
        `--warmup=${warmup}`,
        `--concurrency=${concurrency}`,
      ];
      const mcpThroughput = (run: unknown) => {
        const r = run as DriverRun;
        return throughput(
          r.calls,
          r.elapsed_ms,
          r.latency_ms,
          RESULT_BYTES[tool],
          r.cpu_us_per_call,
        );
      };
      progress(`${placement.label}: MCP (Deno) ${key}`);
      out.mcp[key] = await medianRun(
        sizes.repeats,
        async () => mcpThroughput(await pinned(cpus, "mcp_client.ts", mcpArgs)),
      );
      progress(`${placement.label}: MCP (Node.js) ${key}`);
      out.mcpNode[key] = await medianRun(
        sizes.repeats,
        async () => mcpThroughput(await pinnedNode(cpus, mcpArgs)),
      );
      if (tool !== "trivial") {
        // The floor of the host's result path: the same parts and answers, no protocol work.
        progress(`${placement.label}: echo ${key}`);
        out.echo[key] = await medianRun(sizes.repeats, async () => {
          const run = await pinned(cpus, "echo_parent.ts", [
            `--calls=${calls}`,
            `--warmup=${warmup}`,
            `--concurrency=${concurrency}`,
            `--result-bytes=${RESULT_BYTES[tool]}`,
          ]) as DriverRun;
          return throughput(
            run.calls,
            run.elapsed_ms,
            run.latency_ms,
            RESULT_BYTES[tool],
            run.cpu_us_per_call,
          );
        });
      }
    }
  }
  await measureIsolated(out, sizes, progress);
  if (out.isolatedNote === null) await measureColdCalls(out, sizes, progress);
  for (const concurrency of [1, 4]) {
    progress(`${placement.label}: echo/${concurrency}`);
    out.echo[String(concurrency)] = await medianRun(sizes.repeats, async () => {
      const run = await pinned(cpus, "echo_parent.ts", [
        `--calls=${sizes.echoCalls}`,
        `--warmup=${Math.round(sizes.echoCalls / 10)}`,
        `--concurrency=${concurrency}`,
      ]) as DriverRun;
      return throughput(run.calls, run.elapsed_ms, run.latency_ms, 0, run.cpu_us_per_call);
    });
  }
  for (const tools of [1, 32]) {
    progress(`${placement.label}: startup with ${tools} tools`);
    const dir = await generateToolDir(tools);
    try {
      const hostTimes: number[] = [];
      const mcpTimes: number[] = [];
      const nodeTimes: number[] = [];
      // One untimed spawn each first: module caches warm, as on a used machine.
      for (let i = 0; i <= sizes.startups; i++) {
        const host = await pinned(cpus, "host_driver.ts", [
          `--tools=${dir}`,
          "--tool=tool_0",
        ]) as HostRunResult;
        const startupArgs = ["--mode=startup", `--tools=${tools}`];
        const mcp = await pinned(cpus, "mcp_client.ts", startupArgs) as { ready_ms: number };
        const node = await pinnedNode(cpus, startupArgs) as { ready_ms: number };
        if (i === 0) continue;
        hostTimes.push(host.ready_ms);
        mcpTimes.push(mcp.ready_ms);
        nodeTimes.push(node.ready_ms);
        const key = `startup/${tools}`;
        out.hostPeakKb[key] = Math.max(out.hostPeakKb[key] ?? 0, host.backend.hwm_kb);
      }
      out.hostReadyMs[String(tools)] = median(hostTimes);
      out.mcpReadyMs[String(tools)] = median(mcpTimes);
      out.mcpNodeReadyMs[String(tools)] = median(nodeTimes);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  progress(`${placement.label}: host RSS over ${sizes.rssCalls} calls`);
  const rssRun = await pinned(cpus, "host_driver.ts", [
    `--tools=${toolDir}`,
    "--tool=trivial",
    `--calls=${sizes.rssCalls}`,
    `--warmup=${sizes.rssWarmup}`,
    "--concurrency=4",
    `--rss-every=${Math.max(1, Math.round(sizes.rssCalls / 10))}`,
  ]) as HostRunResult;
  out.rss = rssRun.backend.rss_kb;
  out.hostPeakKb["memory"] = rssRun.backend.hwm_kb;
  out.rssCallsPerSec = (rssRun.backend.calls * 1000) / rssRun.backend.elapsed_ms;
  return out;
}

/**
 * Trivial calls of a tool declared `isolation: "process"`. The tool answers
 * `hello` only from its own process; an `inline` answer (or a failed host
 * run) means process isolation is not available, recorded in `isolatedNote`.
 */
export async function measureIsolated(
  out: PlacementResults,
  sizes: SuiteSizes,
  progress: Progress,
): Promise<void> {
  // Both modes in the same run, one after the other per concurrency: the kernel layer's cost.
  const modes = [
    { key: "isolated", flags: [] as string[], label: "" },
    { key: "isolatedNoKernel", flags: ["--cli-flag=--no-kernel-sandbox"], label: " (no kernel)" },
  ] as const;
  for (const concurrency of [1, 4]) {
    for (const mode of modes) {
      progress(`${out.placement.label}: host isolated trivial/${concurrency}${mode.label}`);
      try {
        out[mode.key][String(concurrency)] = await medianRun(sizes.repeats, async () => {
          const run = await pinned(out.placement.cpus, "host_driver.ts", [
            `--tools=${HARNESS}host_tools_isolated`,
            "--tool=trivial",
            `--calls=${sizes.trivialCalls}`,
            `--warmup=${sizes.warmup}`,
            `--concurrency=${concurrency}`,
            ...mode.flags,
          ]) as HostRunResult;
          const b = run.backend;
          if (b.result_bytes !== RESULT_BYTES.trivial || b.failed_calls > 0 || !b.latency_ms) {
            throw new Error("the tool ran inside the host process");
          }
          if (mode.key === "isolated") out.isolatedLevel = run.sandbox["trivial"] ?? null;
          return throughput(b.calls, b.elapsed_ms, b.latency_ms, b.result_bytes, hostCpu(b));
        });
      } catch (error) {
        out.isolated = {};
        out.isolatedNoKernel = {};
        out.isolatedNote = error instanceof Error ? error.message : String(error);
        return;
      }
    }
  }
}

/**
 * Cold calls, inline against isolated, alternating: the first call of a fresh host after
 * `host.ready` (the backend's timing of one call with no warm-up), and `call` of the trivial
 * tool end to end (spawn → exit). `sizes.startups` of each after one untimed round; medians.
 */
export async function measureColdCalls(
  out: PlacementResults,
  sizes: SuiteSizes,
  progress: Progress,
): Promise<void> {
  const kinds = [
    ["inline", `${HARNESS}host_tools`],
    ["isolated", `${HARNESS}host_tools_isolated`],
  ] as const;
  const cold: Record<string, number[]> = { inline: [], isolated: [] };
  const calls: Record<string, number[]> = { inline: [], isolated: [] };
  progress(`${out.placement.label}: cold first call and \`call\`, inline and isolated`);
  for (let i = 0; i <= sizes.startups; i++) {
    for (const [kind, dir] of kinds) {
      const run = await pinned(out.placement.cpus, "host_driver.ts", [
        `--tools=${dir}`,
        "--tool=trivial",
        "--calls=1",
        "--warmup=0",
      ]) as HostRunResult;
      const b = run.backend;
      if (b.result_bytes !== RESULT_BYTES.trivial || b.failed_calls > 0 || !b.latency_ms) {
        throw new Error(`Cold ${kind} call returned wrong results`);
      }
      const call = await pinned(out.placement.cpus, "call_driver.ts", [
        `--tools=${dir}`,
        "--tool=trivial",
        "--expect=hello",
      ]) as CallRunResult;
      if (i === 0) continue;
      cold[kind]!.push(b.latency_ms.p50);
      calls[kind]!.push(call.call_ms);
    }
  }
  out.coldCallMs = { inline: median(cold.inline!), isolated: median(cold.isolated!) };
  out.callMs = { inline: median(calls.inline!), isolated: median(calls.isolated!) };
}
