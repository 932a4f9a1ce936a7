/**
 * The MCP bridge row: a trivial `tools/call` to the bench MCP server
 * (`harness/mcp_server.ts`, tool `trivial`) made (a) by the SDK's `Client`
 * directly and (b) through magi-tools: `ToolExecutor.execute` of the
 * external tool the MCP source made from it (argument validation, deadline,
 * result bounds and splitting, then the same SDK `Client` inside the source).
 * Both legs run in this one process, against one server process each, in the
 * same CPU placement (run the whole script under `taskset` to pin it),
 * alternating (A B A B) so drift hits both.
 *
 * Run: `deno run --config dev/deno.json -A bench/mcp_bridge.ts [--calls N] [--write]`. With
 * `--write`, the table replaces the `mcp-bridge` block in `bench/notes.md`
 * and `docs/benchmarks.md` (the notes are part of the generated document, so
 * `deno task bench` keeps it).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startMcpSource } from "../src/mcp/source.ts";
import { ToolExecutor } from "../src/call/executor.ts";
import { ToolRegistry } from "../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../src/protocol/limits.ts";
import { runLoad } from "./harness/load.ts";
import { RESULT_BYTES } from "./harness/payloads.ts";
import { summarize } from "./harness/stats.ts";

const SERVER = new URL("./harness/mcp_server.ts", import.meta.url).pathname;
/** The dev config: maps the MCP SDK the server imports (docs/packages.md). */
const DEV_CONFIG = new URL("../dev/deno.json", import.meta.url).pathname;
const EXPECTED_BYTES = RESULT_BYTES.trivial;

interface Leg {
  readonly name: string;
  call(index: number): Promise<void>;
  close(): Promise<void>;
}

async function sdkLeg(): Promise<Leg> {
  const client = new Client({ name: "magi-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--config", DEV_CONFIG, "-A", SERVER],
    }),
  );
  return {
    name: "SDK Client → MCP server",
    call: async () => {
      const answer = await client.callTool({ name: "trivial", arguments: {} });
      const content = answer.content as { text?: string }[];
      if (content[0]?.text?.length !== EXPECTED_BYTES) throw new Error("unexpected SDK result");
    },
    close: () => client.close(),
  };
}

async function bridgeLeg(): Promise<Leg> {
  const source = await startMcpSource({
    name: "bench",
    transport: {
      kind: "stdio",
      command: Deno.execPath(),
      args: ["run", "--config", DEV_CONFIG, "-A", SERVER],
      env: {},
    },
    include: ["trivial"],
    exclude: [],
    effects: {},
    descriptions: {},
    prefix: "bench_",
    enabled: true,
    optional: false,
  }, { cwd: Deno.cwd() });
  const registry = ToolRegistry.fromLoaded([], { external: source.tools });
  const executor = new ToolExecutor(registry, { limits: CLIENT_TOOLS_LIMITS, cwd: Deno.cwd() });
  const entry = registry.get("bench_trivial")!;
  const signal = new AbortController().signal;
  return {
    name: "magi-tools executor → MCP source → MCP server",
    call: async (index) => {
      const result = await executor.execute({
        callId: `c${index}`,
        name: "bench_trivial",
        toolId: entry.toolId,
        arguments: {},
        deadlineMs: 60_000,
        sessionId: "bench",
        runId: "bench",
      }, signal);
      if (result.outcome !== "success" || result.text.length !== EXPECTED_BYTES) {
        throw new Error(`unexpected bridge result: ${result.text}`);
      }
    },
    close: async () => {
      await executor.close();
      await source.close();
    },
  };
}

interface Measured {
  readonly leg: string;
  readonly concurrency: number;
  readonly callsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

async function measure(leg: Leg, calls: number, concurrency: number): Promise<Measured> {
  const result = await runLoad((i) => leg.call(i), calls, { concurrency, warmup: 200 });
  const stats = summarize(result.latencies);
  return {
    leg: leg.name,
    concurrency,
    callsPerS: calls / (result.elapsedMs / 1000),
    p50Ms: stats.p50,
    p99Ms: stats.p99,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The markdown block for `results` (two rounds per leg and concurrency, medians). */
export function renderBridge(results: readonly Measured[], info: string): string {
  const lines = [
    "<!-- mcp-bridge:start (bench/mcp_bridge.ts --write) -->",
    "### MCP bridge: a trivial call to an MCP server, through magi-tools vs. the SDK client",
    "",
    info,
    "",
    "| Path | Concurrency | Calls/s | p50 ms | p99 ms | magi-tools / SDK |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const concurrency of [...new Set(results.map((r) => r.concurrency))]) {
    const rows = results.filter((r) => r.concurrency === concurrency);
    const legs = [...new Set(rows.map((r) => r.leg))];
    const rate = (leg: string) => median(rows.filter((r) => r.leg === leg).map((r) => r.callsPerS));
    const sdk = rate(legs[0]!);
    for (const leg of legs) {
      const mine = rows.filter((r) => r.leg === leg);
      lines.push(
        `| ${leg} | ${concurrency} | ${rate(leg).toFixed(0)} | ${
          median(mine.map((r) => r.p50Ms)).toFixed(2)
        } | ${median(mine.map((r) => r.p99Ms)).toFixed(2)} | ${(rate(leg) / sdk).toFixed(2)}x |`,
      );
    }
  }
  lines.push("<!-- mcp-bridge:end -->");
  return lines.join("\n");
}

async function replaceBlock(path: string, block: string): Promise<void> {
  const text = await Deno.readTextFile(path);
  const pattern = /<!-- mcp-bridge:start[\s\S]*?<!-- mcp-bridge:end -->/;
  await Deno.writeTextFile(
    path,
    pattern.test(text) ? text.replace(pattern, block) : `${text.trimEnd()}\n\n${block}\n`,
  );
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { calls: { type: "string", default: "2000" }, write: { type: "boolean" } },
  });
  const calls = Number(values.calls);
  const legs = [await sdkLeg(), await bridgeLeg()];
  const results: Measured[] = [];
  try {
    for (const concurrency of [1, 4]) {
      for (let round = 0; round < 2; round++) {
        for (const leg of legs) {
          const measured = await measure(leg, calls, concurrency);
          console.error(`mcp-bridge: ${JSON.stringify(measured)}`);
          results.push(measured);
        }
      }
    }
  } finally {
    for (const leg of legs) await leg.close();
  }
  const load = await Deno.readTextFile("/proc/loadavg").then((t) =>
    t.split(" ").slice(0, 3).join(" ")
  )
    .catch(() => "unknown");
  const info =
    `${new Date().toISOString().slice(0, 16)}Z, ${navigator.hardwareConcurrency} CPUs, ` +
    `Deno ${Deno.version.deno}, ${calls} calls per measurement after 200 warm-up calls, medians of 2 ` +
    `alternating rounds, both legs in one process, same placement; load average after: ${load}` +
    (Number(load.split(" ")[0]) <= 2
      ? " (a quiet machine)."
      : " (a busy machine: other work was running, so read the ratio, not the rates).");
  const block = renderBridge(results, info);
  console.log(block);
  if (values.write) {
    await replaceBlock(new URL("./notes.md", import.meta.url).pathname, block);
    await replaceBlock(new URL("../docs/benchmarks.md", import.meta.url).pathname, block);
  }
}
