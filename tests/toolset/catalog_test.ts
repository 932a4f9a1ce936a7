import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type Tool } from "../../src/tool/define.ts";
import { CatalogExecutor } from "../../src/call/catalog_route.ts";
import {
  CALL_TOOL,
  CALL_WRITE_TOOL,
  CATALOG_TOOL_NAMES,
  SEARCH_ANSWER_BYTES,
  SEARCH_TOOL,
} from "../../src/toolset/catalog.ts";
import { ToolExecutor } from "../../src/call/executor.ts";
import { RegistryError, ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";

function tool(name: string, effect: "read" | "write", description = `The ${name} tool.`): Tool {
  return defineTool({
    name,
    description,
    input: z.object({ n: z.number() }),
    effect,
    isolation: "inline",
    run: ({ n }) => ({ tool: name, n }),
  });
}

function registry(count: number, extra: Tool[] = []): ToolRegistry {
  const tools = [
    ...Array.from({ length: count }, (_, i) => tool(`filler_${i}`, "read")),
    ...extra,
  ];
  return ToolRegistry.fromLoaded(
    tools.map((t) => ({ tool: t, file: `tools/${t.name}.ts`, url: `file:///tools/${t.name}.ts` })),
  );
}

function executorOf(reg: ToolRegistry): CatalogExecutor {
  const inner = new ToolExecutor(reg, { limits: CLIENT_TOOLS_LIMITS, cwd: Deno.cwd() });
  return new CatalogExecutor(reg, inner);
}

function call(reg: ToolRegistry, name: string, args: unknown) {
  const wire = reg.registered.find((entry) => entry.name === name);
  const hidden = reg.get(name);
  return {
    callId: `c-${name}`,
    name,
    toolId: wire?.toolId ?? hidden?.toolId ?? "0".repeat(64),
    arguments: args,
    deadlineMs: 10_000,
    sessionId: "s",
    runId: "r",
  };
}

const extra = [
  tool("weather_forecast", "read", "Forecast the weather for a city."),
  tool("deploy_service", "write", "Deploy a service to production."),
];

Deno.test("CatalogExecutor: tool_search ranks by name and description, bounded", async () => {
  const reg = registry(40, extra);
  const exec = executorOf(reg);
  const signal = new AbortController().signal;
  const result = await exec.execute(
    call(reg, "tool_search", { query: "weather city", limit: 3 }),
    signal,
  );
  assert.equal(result.outcome, "success");
  const answer = JSON.parse(result.text) as { tools: { name: string; call_with: string }[] };
  assert.equal(answer.tools[0]?.name, "weather_forecast");
  assert.equal(answer.tools[0]?.call_with, "tool_call");
  assert.ok(result.bytes <= SEARCH_ANSWER_BYTES);
  const bad = await exec.execute(call(reg, "tool_search", { query: "" }), signal);
  assert.deepEqual([bad.outcome, bad.errorCode], ["error", "invalid_arguments"]);
});

Deno.test("CatalogExecutor: tool_call runs a hidden read tool; a write tool needs tool_call_write", async () => {
  const reg = registry(40, extra);
  const exec = executorOf(reg);
  const signal = new AbortController().signal;
  const read = await exec.execute(
    call(reg, "tool_call", { name: "weather_forecast", arguments: { n: 1 } }),
    signal,
  );
  assert.equal(read.text, '{"tool":"weather_forecast","n":1}');
  assert.deepEqual(exec.route("tool_call", { name: "weather_forecast" }), {
    name: "weather_forecast",
    toolId: reg.get("weather_forecast")!.toolId,
    via: "tool_call",
  });
  const refused = await exec.execute(
    call(reg, "tool_call", { name: "deploy_service", arguments: { n: 1 } }),
    signal,
  );
  assert.equal(refused.errorCode, "invalid_arguments");
  assert.match(refused.text, /deploy_service is a write tool: call it with tool_call_write/);
  const write = await exec.execute(
    call(reg, "tool_call_write", { name: "deploy_service", arguments: { n: 2 } }),
    signal,
  );
  assert.equal(write.text, '{"tool":"deploy_service","n":2}');
  // The same validation as a direct call.
  const invalid = await exec.execute(
    call(reg, "tool_call", { name: "weather_forecast", arguments: { n: "x" } }),
    signal,
  );
  assert.equal(invalid.errorCode, "invalid_arguments");
  const unknown = await exec.execute(
    call(reg, "tool_call", { name: "nope", arguments: {} }),
    signal,
  );
  assert.equal(unknown.errorCode, "unknown_tool");
  // A hidden tool called under its own name was never registered.
  const direct = await exec.execute(call(reg, "weather_forecast", { n: 1 }), signal);
  assert.equal(direct.errorCode, "unknown_tool");
  // The dispatcher of write tools is registered as a write tool (approval first).
  assert.equal(
    reg.registered.find((entry) => entry.name === "tool_call_write")?.definition.effect,
    "write",
  );
});

Deno.test("ToolRegistry: a tool named like a catalog tool is refused past 32 tools only", () => {
  assert.equal(registry(1, [tool("tool_search", "read")]).tools.length, 2);
  assert.throws(
    () => registry(40, [tool("tool_search", "read")]),
    (error) => error instanceof RegistryError && /tool_search is reserved/.test(error.message),
  );
});

Deno.test("the catalog's tool names are the ones the terminal view treats as client tools", () => {
  assert.deepEqual([...CATALOG_TOOL_NAMES], [SEARCH_TOOL, CALL_TOOL, CALL_WRITE_TOOL]);
});

Deno.test("CatalogExecutor: a write tool reached through tool_call_write is put to the person by its own name, arguments validated first", async () => {
  const reg = registry(40, extra);
  const asked: { tool: string; paths: string[] }[] = [];
  const inner = new ToolExecutor(reg, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd: Deno.cwd(),
    approveCall: {
      asks: () => true,
      decide: (request) => {
        asked.push({ tool: request.name, paths: request.view.lines.map((line) => line.path) });
        return Promise.resolve({ allow: true });
      },
    },
  });
  const executor = new CatalogExecutor(reg, inner);
  const signal = new AbortController().signal;
  const invalid = await executor.execute(
    call(reg, CALL_WRITE_TOOL, { name: "deploy_service", arguments: { n: "x" } }),
    signal,
  );
  assert.equal(invalid.errorCode, "invalid_arguments");
  assert.equal(asked.length, 0, "an invalid call is never put to a person");
  const ok = await executor.execute(
    call(reg, CALL_WRITE_TOOL, { name: "deploy_service", arguments: { n: 7 } }),
    signal,
  );
  assert.equal(ok.outcome, "success", ok.text);
  assert.deepEqual(asked, [{ tool: "deploy_service", paths: ["n"] }]);
});
