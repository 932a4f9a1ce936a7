/**
 * Call overhead of a process-isolated tool versus an inline one, both warm,
 * both trivial (echo), both through `ToolExecutor.execute` (validation,
 * slots, deadline timers, result splitting). The isolated path adds one
 * NDJSON round trip over the tool process's pipes.
 *
 * Run: `deno task bench:sandbox` (`deno bench -A bench/sandbox_bench.ts`).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../src/tool/define.ts";
import { loadToolDirs } from "../src/toolset/discovery.ts";
import { ToolExecutor } from "../src/call/executor.ts";
import { ToolRegistry } from "../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../src/protocol/limits.ts";

const inline = defineTool({
  name: "echo_inline",
  description: "Return the given text unchanged (inline).",
  input: z.strictObject({ text: z.string() }),
  effect: "read",
  isolation: "inline",
  run: ({ text }) => text,
});

const loaded = await loadToolDirs([new URL("./sandbox_fixtures/", import.meta.url).pathname]);
const registry = ToolRegistry.fromLoaded([
  ...loaded,
  { tool: inline, file: "bench/sandbox_bench.ts", url: import.meta.url },
]);
const executor = new ToolExecutor(registry, { limits: CLIENT_TOOLS_LIMITS, cwd: Deno.cwd() });
const never = new AbortController().signal;
let counter = 0;

async function call(name: string): Promise<void> {
  const entry = registry.get(name)!;
  const result = await executor.execute({
    callId: `bench-${++counter}`,
    name,
    toolId: entry.toolId,
    arguments: { text: "hello" },
    deadlineMs: 60_000,
    sessionId: "s",
    runId: "r",
  }, never);
  if (result.text !== "hello") throw new Error(`Unexpected result: ${result.text}`);
}

// Warm: start the isolated tool's process and run one call of each before measuring.
await call("echo_isolated");
await call("echo_inline");
globalThis.addEventListener("unload", () => void executor.close());

Deno.bench("inline tool call (warm, trivial)", { group: "sandbox", baseline: true }, async () => {
  await call("echo_inline");
});

Deno.bench("isolated tool call (warm process, trivial)", { group: "sandbox" }, async () => {
  await call("echo_isolated");
});
