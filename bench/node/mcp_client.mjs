/**
 * MCP driver on Node.js: the official SDK's `Client` + `StdioClientTransport`
 * against `mcp_server.mjs` (also Node.js), as the SDK's users run both. The
 * same measurements as `bench/harness/mcp_client.ts` (the Deno column), with
 * the same flags and one JSON line of the same shape on stdout.
 *
 * - `--mode=calls --tool=trivial --calls=2000 --concurrency=4 --warmup=200`:
 *   round trips of `tools/call`, after the untimed warm-up calls.
 * - `--mode=startup --tools=32`: spawn → `initialize` → `tools/list` done, ms.
 *
 * Run: `node bench/node/mcp_client.mjs ...` (after `npm ci --prefix bench/node`).
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countFlag, cpuMeter, RESULT_BYTES, runLoad, summarize } from "./harness.mjs";

const SERVER = new URL("./mcp_server.mjs", import.meta.url).pathname;

/**
 * @param {number | undefined} generated
 * @returns {StdioClientTransport}
 */
function transport(generated) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  if (generated !== undefined) env.MCP_BENCH_TOOLS = String(generated);
  return new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    env,
    stderr: "inherit",
  });
}

/**
 * Spawn → initialized → `tools/list` done, ms; checks the tool count.
 *
 * @param {number} tools
 */
async function measureStartup(tools) {
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

/**
 * `calls` tool calls of `tool` at `concurrency` after `warmup` untimed ones.
 *
 * @param {keyof typeof RESULT_BYTES} tool
 * @param {{ calls: number, concurrency: number, warmup: number }} options
 */
async function measureCalls(tool, options) {
  const client = new Client({ name: "magi-bench", version: "1.0.0" });
  const stdio = transport(undefined);
  await client.connect(stdio);
  const expected = RESULT_BYTES[tool];
  // CPU of each process over the timed calls, as in the Deno column.
  const cpu = cpuMeter(
    { server: () => stdio.pid, client: () => process.pid },
    (pid) => readFileSync(`/proc/${pid}/stat`, "utf8"),
  );
  try {
    const result = await runLoad(
      async () => {
        const answer = await client.callTool({ name: tool, arguments: {} });
        const content = /** @type {{ type: string, text?: string }[]} */ (answer.content);
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
    };
  } finally {
    await client.close();
  }
}

const { values } = parseArgs({
  args: process.argv.slice(2),
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
  console.log(JSON.stringify(await measureStartup(countFlag("--tools", values.tools))));
} else if (values.mode === "calls") {
  if (!Object.hasOwn(RESULT_BYTES, values.tool)) {
    throw new RangeError(
      `--tool must be one of ${Object.keys(RESULT_BYTES).join(", ")}: ${values.tool}`,
    );
  }
  const result = await measureCalls(/** @type {keyof typeof RESULT_BYTES} */ (values.tool), {
    calls: countFlag("--calls", values.calls),
    concurrency: countFlag("--concurrency", values.concurrency),
    warmup: countFlag("--warmup", values.warmup, { allowZero: true }),
  });
  console.log(JSON.stringify(result));
} else {
  throw new RangeError(`--mode must be calls or startup: ${values.mode}`);
}
