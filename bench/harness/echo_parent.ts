/**
 * Physical-limit driver: spawns {@link ./echo_child.ts}, writes one line per
 * call (the size of a `client.tool.call` event frame), waits for its echo,
 * and prints one JSON line of results on stdout.
 *
 * Run: `deno run -A bench/harness/echo_parent.ts --calls 20000 --concurrency 4`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { LineSplitter } from "./lines.ts";
import { runLoad } from "./load.ts";
import { Outbox } from "./outbox.ts";
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
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", new URL("./echo_child.ts", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const outbox = new Outbox(child.stdin);
  const waiting: (() => void)[] = [];
  let head = 0;
  const reading = (async () => {
    const splitter = new LineSplitter();
    for await (const chunk of child.stdout) {
      const lines = splitter.push(chunk);
      for (let i = 0; i < lines.length; i++) waiting[head++]!();
      if (head > 4096) {
        waiting.splice(0, head);
        head = 0;
      }
    }
  })();
  const encoder = new TextEncoder();
  const payload = encoder.encode(sampleLine(0));
  const cpu = new CpuMeter({ parent: () => Deno.pid, child: () => child.pid });
  try {
    const result = await runLoad(
      () =>
        new Promise<void>((resolve) => {
          waiting.push(resolve);
          outbox.push(payload);
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
    };
  } finally {
    await outbox.close();
    await reading.catch(() => {});
    await child.status;
  }
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
