/**
 * Physical-limit driver: spawns {@link ./echo_child.ts} through
 * `node:child_process` (as the host spawns its backend), writes one line per
 * call (the size of a `client.tool.call` event frame) with the host's
 * coalescing, waits for its echo, and prints one JSON line of results
 * (rate, latency, CPU per round trip of both processes) on stdout.
 *
 * Run: `deno run -A bench/harness/echo_parent.ts --calls 20000 --concurrency 4`.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { LineSplitter } from "./lines.ts";
import { runLoad } from "./load.ts";
import { CpuMeter } from "./proc_status.ts";
import { summarize } from "./stats.ts";

/** A line about the size of a `client.tool.call` event frame. */
export function sampleLine(index: number): string {
  return JSON.stringify({
    protocol: "magi-code.local-agent",
    version: 1,
    type: "event",
    instance_id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    seq: index + 10,
    event: "client.tool.call",
    data: {
      session_id: "bench-session",
      run_id: "5b0e2c7a-9a71-4f69-9d9e-3a1d2f6f4c11",
      call_id: `c${index}`,
      name: "trivial",
      tool_id: "0".repeat(64),
      arguments: {},
      deadline_ms: 120000,
    },
  }) + "\n";
}

/** Echo round trips: `calls` lines at `concurrency`, after `warmup` lines. */
export async function measureEcho(
  calls: number,
  options: { concurrency: number; warmup: number },
): Promise<Record<string, unknown>> {
  // Spawned through node:child_process, as the host spawns its backend (src/runtime): its
  // pipes cost the parent less per round trip than Deno.Command's streams (bench/notes.md).
  const child = spawn(Deno.execPath(), [
    "run",
    new URL("./echo_child.ts", import.meta.url).pathname,
  ], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const waiting: (() => void)[] = [];
  let head = 0;
  const splitter = new LineSplitter();
  child.stdout!.on("data", (chunk: Uint8Array) => {
    const lines = splitter.push(chunk);
    for (let i = 0; i < lines.length; i++) waiting[head++]!();
    if (head > 4096) {
      waiting.splice(0, head);
      head = 0;
    }
  });
  // The Outbox's (and the host's frame writer's) coalescing: a line goes out at once when no
  // write is in flight; lines queued during a write go out together in the next one.
  let queued: Uint8Array[] = [];
  let writing = false;
  const written = () => {
    if (queued.length === 0) {
      writing = false;
      return;
    }
    const batch = queued.length === 1 ? queued[0]! : concat(queued);
    queued = [];
    child.stdin!.write(batch, written);
  };
  const push = (bytes: Uint8Array) => {
    if (writing) {
      queued.push(bytes);
      return;
    }
    writing = true;
    child.stdin!.write(bytes, written);
  };
  const payload = new TextEncoder().encode(sampleLine(0));
  const cpu = new CpuMeter({ parent: () => Deno.pid, child: () => child.pid });
  try {
    const result = await runLoad(
      () =>
        new Promise<void>((resolve) => {
          waiting.push(resolve);
          push(payload);
        }),
      calls,
      { concurrency: options.concurrency, warmup: options.warmup, onTimed: cpu.onTimed },
    );
    return {
      calls,
      concurrency: options.concurrency,
      line_bytes: payload.length,
      elapsed_ms: result.elapsedMs,
      latency_ms: summarize(result.latencies),
      cpu_us_per_call: cpu.perCall(calls),
      cpu_system_us_per_call: cpu.systemPerCall(calls),
    };
  } finally {
    child.stdin!.end();
    await exited;
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      calls: { type: "string", default: "20000" },
      concurrency: { type: "string", default: "1" },
      warmup: { type: "string", default: "1000" },
    },
  });
  const result = await measureEcho(Number(values.calls), {
    concurrency: Number(values.concurrency),
    warmup: Number(values.warmup),
  });
  console.log(JSON.stringify(result));
}
