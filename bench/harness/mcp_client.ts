/**
 * MCP driver: the official SDK's `Client` + `StdioClientTransport` against
 * {@link ./mcp_server.ts} (run with Deno). Prints one JSON line on stdout.
 *
 * - `--mode calls --tool trivial --calls 2000 --concurrency 4`: round trips of
 *   `tools/call`, after `--warmup` untimed calls.
 * - `--mode startup --tools 32`: spawn → `initialize` → `tools/list` done, ms.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { Client } from "npm:@modelcontextprotocol/sdk@^1/client/index.js";
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@^1/client/stdio.js";
import { runLoad } from "./load.ts";
import { type BenchToolName, RESULT_BYTES } from "./payloads.ts";
import { CpuMeter } from "./proc_status.ts";
import { summarize } from "./stats.ts";

const SERVER = new URL("./mcp_server.ts", import.meta.url).pathname;
/** The dev config: maps the MCP SDK the server imports (docs/packages.md). */
const DEV_CONFIG = new URL("../../dev/deno.json", import.meta.url).pathname;

function transport(generated: number | undefined): StdioClientTransport {
  const env: Record<string, string> = { ...Deno.env.toObject() };
  if (generated !== undefined) env.MCP_BENCH_TOOLS = String(generated);
  return new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "--config", DEV_CONFIG, "-A", SERVER],
    env,
    stderr: "inherit",
  });
}

/** Spawn → initialized → `tools/list` done, ms; checks the tool count. */
export async function measureMcpStartup(tools: number): Promise<Record<string, unknown>> {
  const client = new Client({ name: "magi-bench", version: "1.0.0" });
  const t0 = performance.now();
  await client.connect(transport(tools));
  const listed = await client.listTools();
  const readyMs = performance.now() - t0;
  await client.close();
  if (listed.tools.length !== tools) {
    throw new Error(`MCP server listed ${listed.tools.length} tools, expected ${tools}`);
  }
  return { tools, ready_ms: readyMs };
}

/** `calls` tool calls of `tool` at `concurrency` after `warmup` untimed ones. */
export async function measureMcpCalls(
  tool: BenchToolName,
  options: { calls: number; concurrency: number; warmup: number },
): Promise<Record<string, unknown>> {
  const client = new Client({ name: "magi-bench", version: "1.0.0" });
  const stdio = transport(undefined);
  await client.connect(stdio);
  const expected = RESULT_BYTES[tool];
  // CPU of each process over the timed calls: the SDK server (the host's counterpart) and
  // this client (the fake backend's).
  const cpu = new CpuMeter({ server: () => stdio.pid, client: () => Deno.pid });
  try {
    const result = await runLoad(
      async () => {
        const answer = await client.callTool({ name: tool, arguments: {} });
        const content = answer.content as { type: string; text?: string }[];
        if (answer.isError === true || content[0]?.text?.length !== expected) {
          throw new Error(`MCP call of ${tool} returned an unexpected result`);
        }
      },
      options.calls,
      { concurrency: options.concurrency, warmup: options.warmup, onTimed: cpu.onTimed },
    );
    return {
      tool,
      result_bytes: expected,
      calls: options.calls,
      concurrency: options.concurrency,
      elapsed_ms: result.elapsedMs,
      latency_ms: summarize(result.latencies),
      cpu_us_per_call: cpu.perCall(options.calls),
      cpu_system_us_per_call: cpu.systemPerCall(options.calls),
    };
  } finally {
    await client.close();
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      mode: { type: "string", default: "calls" },
      tool: { type: "string", default: "trivial" },
      tools: { type: "string", default: "1" },
      calls: { type: "string", default: "2000" },
      concurrency: { type: "string", default: "1" },
      warmup: { type: "string", default: "200" },
    },
  });
  if (values.mode === "startup") {
    console.log(JSON.stringify(await measureMcpStartup(Number(values.tools))));
  } else {
    if (!(values.tool in RESULT_BYTES)) throw new Error(`Unknown tool: ${values.tool}`);
    const result = await measureMcpCalls(values.tool as BenchToolName, {
      calls: Number(values.calls),
      concurrency: Number(values.concurrency),
      warmup: Number(values.warmup),
    });
    console.log(JSON.stringify(result));
  }
}
