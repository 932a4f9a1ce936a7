/**
 * Before/after startup comparison on a shared machine: starts the host
 * (`cli.ts run` with {@link ./harness/fake_backend.ts}, no calls) alternately
 * from two checkouts (`--base DIR` and this one; rounds alternate the order),
 * pinned to `--cpus`, and reads the CPU time of the host's main (JavaScript)
 * thread from `/proc/<pid>/schedstat` (nanoseconds; V8's helper threads are not
 * in it) the moment its `host.ready` line arrives: the startup work in CPU
 * time, which other load disturbs less than
 * the spawn → `host.ready` wall time (also printed). One untimed start of each
 * side first.
 *
 * Run: `deno run -A bench/ab_startup.ts --base /tmp/base --tools DIR --tool tool_0
 * --rounds 12 --cpus 0` (a 32-tool DIR: `bench/harness/generate_tools.ts`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { median } from "./ab_host.ts";
import { startTaskV8Flags } from "./harness/host_driver.ts";
import { readSchedstatMs } from "./harness/proc_status.ts";

const FAKE_BACKEND = new URL("./harness/fake_backend.ts", import.meta.url).pathname;
const HERE = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const READY = '{"type":"host.ready"';

interface StartSample {
  cpuMs: number;
  readyMs: number;
}

async function startOnce(
  repo: string,
  spec: { tools: string; tool: string; cpus: string },
): Promise<StartSample> {
  const stats = await Deno.makeTempFile({ prefix: "magi-bench-stats-" });
  try {
    const v8 = startTaskV8Flags(await Deno.readTextFile(`${repo}/deno.json`));
    const t0 = performance.now();
    const child = new Deno.Command("taskset", {
      args: [
        ...["-c", spec.cpus, Deno.execPath(), "run", "-A", ...v8, `${repo}/cli.ts`, "run"],
        ...["--tools", spec.tools, "--agent", `${Deno.execPath()} run -A ${FAKE_BACKEND}`, "bench"],
      ],
      cwd: repo,
      env: {
        BENCH_STATS_FILE: stats,
        BENCH_TOOL: spec.tool,
        BENCH_CALLS: "0",
        BENCH_WARMUP: "0",
        BENCH_CONCURRENCY: "1",
        BENCH_RSS_EVERY: "0",
        NO_COLOR: "1",
      },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    // taskset execs the host in place: the child's pid is the host's.
    let seen = "";
    let sample: StartSample | null = null;
    const decoder = new TextDecoder();
    for await (const chunk of child.stdout) {
      if (sample !== null) continue;
      seen += decoder.decode(chunk, { stream: true });
      if (seen.includes(READY)) {
        sample = { cpuMs: readSchedstatMs(child.pid), readyMs: performance.now() - t0 };
      }
    }
    const status = await child.status;
    if (!status.success || sample === null) {
      throw new Error(
        `Host start failed in ${repo}: exit ${status.code}, ready ${sample !== null}`,
      );
    }
    return sample;
  } finally {
    await Deno.remove(stats).catch(() => {});
  }
}

function range(values: readonly number[]): string {
  return `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${
    Math.max(...values).toFixed(1)
  })`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      base: { type: "string" },
      tools: { type: "string", default: new URL("./harness/host_tools", import.meta.url).pathname },
      tool: { type: "string", default: "trivial" },
      rounds: { type: "string", default: "8" },
      cpus: { type: "string", default: "0" },
    },
  });
  if (values.base === undefined) throw new TypeError("--base DIR is required");
  const rounds = Number(values.rounds);
  if (!Number.isSafeInteger(rounds) || rounds < 1) {
    throw new RangeError(`--rounds must be a positive integer: ${values.rounds}`);
  }
  const base = values.base.replace(/\/*$/, "");
  const spec = { tools: values.tools, tool: values.tool, cpus: values.cpus };
  console.log(`load average before: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
  await startOnce(base, spec);
  await startOnce(HERE, spec);
  const cpu = { base: [] as number[], new: [] as number[] };
  const ready = { base: [] as number[], new: [] as number[] };
  const diffs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["base", "new"] as const : ["new", "base"] as const;
    const got: Partial<Record<"base" | "new", StartSample>> = {};
    for (const side of order) got[side] = await startOnce(side === "base" ? base : HERE, spec);
    for (const side of order) {
      cpu[side].push(got[side]!.cpuMs);
      ready[side].push(got[side]!.readyMs);
    }
    diffs.push(got.new!.cpuMs - got.base!.cpuMs);
    console.log(
      `round ${round + 1}: base ${got.base!.cpuMs.toFixed(1)} ms CPU (ready ${
        got.base!.readyMs.toFixed(0)
      } ms), new ${got.new!.cpuMs.toFixed(1)} ms CPU (ready ${got.new!.readyMs.toFixed(0)} ms)`,
    );
  }
  const lower = diffs.filter((d) => d < 0).length;
  console.log(`host CPU spawn → host.ready, ms: base ${range(cpu.base)}, new ${range(cpu.new)}`);
  console.log(`new − base per round: ${range(diffs)}, new lower in ${lower}/${rounds}`);
  console.log(`spawn → host.ready, ms: base ${range(ready.base)}, new ${range(ready.new)}`);
  console.log(`load average after: ${(await Deno.readTextFile("/proc/loadavg")).trim()}`);
}
