/**
 * Just the kernel layer's bench rows: trivial calls of the process-isolated
 * tool through the host, with the kernel layer (default) and without it
 * (`--no-kernel-sandbox`), in the same run, in both CPU placements, as the
 * suite measures them (`measureIsolated`). Prints the rows as a Markdown
 * table on stdout (progress on stderr); writes nothing.
 *
 * Run: `deno run -A bench/kernel_row.ts [--quick]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { readLoadavg } from "./machine.ts";
import {
  FULL_SIZES,
  measureIsolated,
  type PlacementResults,
  PLACEMENTS,
  QUICK_SIZES,
} from "./suite.ts";
import type { Throughput } from "./suite.ts";

function rate(t: Throughput | undefined): string {
  return t === undefined
    ? "n/a"
    : `${t.callsPerSec.toFixed(0)} calls/s (p50 ${t.latency.p50.toFixed(2)} / p99 ${
      t.latency.p99.toFixed(2)
    } ms)`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { quick: { type: "boolean", default: false } },
  });
  const sizes = values.quick ? QUICK_SIZES : FULL_SIZES;
  const loadBefore = readLoadavg();
  const lines = [
    "| placement | concurrency | level | with kernel layer | without (`--no-kernel-sandbox`) | with / without |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const placement of PLACEMENTS) {
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
      rss: [],
      rssCallsPerSec: 0,
    };
    await measureIsolated(out, sizes, (line) => console.error(`bench: ${line}`));
    for (const c of ["1", "4"]) {
      const kernel = out.isolated[c];
      const plain = out.isolatedNoKernel[c];
      const share = kernel && plain
        ? `${(kernel.callsPerSec / plain.callsPerSec * 100).toFixed(0)}%`
        : out.isolatedNote ?? "n/a";
      lines.push(
        `| ${placement.label} | ${c} | ${out.isolatedLevel ?? "n/a"} | ${rate(kernel)} | ${
          rate(plain)
        } | ${share} |`,
      );
    }
  }
  console.log(lines.join("\n"));
  console.log(
    `\nload average before ${loadBefore.join(" ")}, after ${readLoadavg().join(" ")}; ${
      values.quick ? "quick sizes" : "full sizes"
    }`,
  );
}
