import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/tool/define.ts";
import {
  defineExternalTool,
  type ExternalTool,
  type ExternalToolContext,
  ExternalToolError,
  type ExternalToolSpec,
  type ToolProgress,
} from "../../src/tool/external.ts";
import { type ToolCallRequest, ToolExecutor } from "../../src/call/executor.ts";
import { RegistryError, ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import { FakeTime } from "../_fake_time.ts";

function external(
  name: string,
  run: (args: Record<string, unknown>, ctx: ExternalToolContext) => Promise<unknown>,
  extra: Partial<ExternalToolSpec> = {},
): ExternalTool {
  return defineExternalTool({
    name,
    description: `External ${name}.`,
    inputSchema: { type: "object", properties: { text: { type: "string" } } },
    effect: "read",
    source: { kind: "mcp", name: "srv" },
    validate: (args) =>
      typeof (args as Record<string, unknown>)["text"] === "number"
        ? "text: expected string, received number"
        : null,
    run,
    ...extra,
  });
}

const moduleTool = defineTool({
  name: "local",
  description: "A module tool.",
  input: z.object({}),
  effect: "read",
  isolation: "inline",
  run: () => "local",
});

function setup(
  tools: ExternalTool[],
  progress: [string, string, ToolProgress][] = [],
  clock?: FakeTime,
) {
  const registry = ToolRegistry.fromLoaded(
    [{ tool: moduleTool, file: "tools/local.ts", url: "file:///tools/local.ts" }],
    { external: tools },
  );
  const executor = new ToolExecutor(registry, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd: "/work",
    graceMs: 50,
    onProgress: (callId, name, update) => progress.push([callId, name, update]),
    ...(clock === undefined ? {} : { clock }),
  });
  let next = 0;
  const call = (name: string, args: unknown, deadlineMs = 60_000): ToolCallRequest => ({
    callId: `call-${next++}`,
    name,
    toolId: registry.get(name)?.toolId ?? "",
    arguments: args,
    deadlineMs,
    sessionId: "s",
    runId: "r",
  });
  return { registry, executor, call };
}

Deno.test("ToolRegistry registers external tools after the modules, with their source", () => {
  const { registry } = setup([external("srv_echo", (args) => Promise.resolve(args["text"]))]);
  assert.deepEqual(registry.tools.map((t) => [t.definition.name, t.source.kind, t.source.name]), [
    ["local", "module", "tools/local.ts"],
    ["srv_echo", "mcp", "srv"],
  ]);
  const definition = registry.get("srv_echo")!.definition;
  assert.deepEqual(definition.input_schema, {
    type: "object",
    properties: { text: { type: "string" } },
  });
  assert.equal(definition.effect, "read");
  assert.equal(registry.get("srv_echo")!.file, "mcp:srv");
});

Deno.test("ToolRegistry rejects an external description over 1024 bytes, naming tool, bound and fix", () => {
  const long = external("srv_long", () => Promise.resolve(""), { description: "d".repeat(1025) });
  assert.throws(() => setup([long]), (error: Error) => {
    assert.ok(error instanceof RegistryError);
    assert.match(error.message, /Tool description is too long: srv_long \(mcp:srv\)/);
    assert.match(error.message, /1025 bytes exceeds the limit of 1024/);
    assert.match(error.message, /fix: exclude the tool in the config/);
    return true;
  });
});

Deno.test("ToolRegistry rejects an external schema over 16384 bytes with the fix", () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 400; i++) properties[`field_${i}`] = { type: "string", description: "x" };
  const big = external("srv_big", () => Promise.resolve(""), {
    inputSchema: { type: "object", properties },
  });
  assert.throws(
    () => setup([big]),
    /Tool input schema is too large: srv_big \(mcp:srv\): \d+ bytes exceeds the limit of 16384; fix: exclude/,
  );
});

Deno.test("ToolRegistry rejects more than 1000 tools counting external ones, with the fix", () => {
  const many = Array.from(
    { length: 1_000 },
    (_, i) => external(`srv_t${i}`, () => Promise.resolve("")),
  );
  assert.throws(
    () => setup(many),
    /Too many tools: 1001 exceeds the limit of 1000: .*srv_t0 \(mcp:srv\).*; fix: exclude/,
  );
});

Deno.test("ToolRegistry rejects an external tool named like a module tool, naming both", () => {
  assert.throws(
    () => setup([external("local", () => Promise.resolve(""))]),
    /Duplicate tool name: local in tools\/local.ts and mcp:srv/,
  );
});

Deno.test("ToolExecutor runs an external tool with validated arguments and its result", async () => {
  const seen: unknown[] = [];
  const { executor, call } = setup([
    external("srv_echo", (args, ctx) => {
      seen.push(args, ctx.callId);
      return Promise.resolve(`echo ${args["text"]}`);
    }),
  ]);
  const result = await executor.execute(
    call("srv_echo", { text: "hi" }),
    new AbortController().signal,
  );
  assert.equal(result.outcome, "success");
  assert.equal(result.text, "echo hi");
  assert.deepEqual(seen, [{ text: "hi" }, "call-0"]);
});

Deno.test("ToolExecutor answers invalid_arguments from the source's validate, without running", async () => {
  let ran = false;
  const { executor, call } = setup([
    external("srv_echo", () => {
      ran = true;
      return Promise.resolve("");
    }),
  ]);
  const bad = await executor.execute(call("srv_echo", { text: 5 }), new AbortController().signal);
  assert.equal(bad.outcome, "error");
  assert.equal(bad.errorCode, "invalid_arguments");
  assert.equal(bad.text, "Invalid arguments: text: expected string, received number");
  const notObject = await executor.execute(call("srv_echo", [1]), new AbortController().signal);
  assert.equal(notObject.errorCode, "invalid_arguments");
  assert.match(notObject.text, /must be a JSON object/);
  assert.equal(ran, false);
});

Deno.test("ToolExecutor answers an ExternalToolError with its own error_code", async () => {
  const { executor, call } = setup([
    external("srv_gone", () => Promise.reject(new ExternalToolError("tool_unavailable", "gone"))),
    external("srv_boom", () => Promise.reject(new Error("boom"))),
  ]);
  const gone = await executor.execute(call("srv_gone", {}), new AbortController().signal);
  assert.deepEqual([gone.outcome, gone.errorCode, gone.text], [
    "error",
    "tool_unavailable",
    "gone",
  ]);
  const boom = await executor.execute(call("srv_boom", {}), new AbortController().signal);
  assert.deepEqual([boom.outcome, boom.errorCode, boom.text], ["error", "tool_failed", "boom"]);
});

Deno.test("ToolExecutor aborts an external call at its deadline and answers without it", async () => {
  let aborted = false;
  const time = new FakeTime();
  const { executor, call } = setup(
    [
      external("srv_hang", (_args, ctx) => {
        ctx.signal.addEventListener("abort", () => aborted = true);
        return new Promise(() => {}); // Ignores the signal: abandoned after the grace.
      }),
    ],
    [],
    time,
  );
  const started = time.now();
  let answered = false;
  const pending = executor.execute(call("srv_hang", {}, 400), new AbortController().signal)
    .finally(() => answered = true);
  // Stopped at 200 ms (400 ms less its delivery margin), abandoned after the 50 ms grace.
  await time.tickUntil(() => answered, 2_000);
  const result = await pending;
  assert.equal(result.outcome, "error");
  assert.equal(result.errorCode, "timeout");
  assert.equal(result.abandoned, true);
  assert.ok(aborted);
  assert.ok(time.now() - started < 2_000);
  assert.equal(time.now() - started, 250);
});

Deno.test("ToolExecutor cancels an external call through its signal", async () => {
  const running = Promise.withResolvers<void>();
  const { executor, call } = setup([
    external("srv_wait", (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
        running.resolve();
      })),
  ]);
  const controller = new AbortController();
  const pending = executor.execute(call("srv_wait", {}), controller.signal);
  await running.promise; // Cancelled while it runs, not before it started.
  controller.abort();
  const result = await pending;
  assert.equal(result.outcome, "cancelled");
  assert.equal(result.abandoned, false);
});

Deno.test("ToolExecutor hands an external call's progress to onProgress", async () => {
  const progress: [string, string, ToolProgress][] = [];
  const { executor, call } = setup([
    external("srv_slow", (_args, ctx) => {
      ctx.progress({ progress: 1, total: 2 });
      ctx.progress({ progress: 2, total: 2, message: "done" });
      return Promise.resolve("ok");
    }),
  ], progress);
  const result = await executor.execute(call("srv_slow", {}), new AbortController().signal);
  assert.equal(result.text, "ok");
  assert.deepEqual(progress, [
    ["call-0", "srv_slow", { progress: 1, total: 2 }],
    ["call-0", "srv_slow", { progress: 2, total: 2, message: "done" }],
  ]);
});

Deno.test("ToolExecutor.prewarm() starts no process for external tools", async () => {
  const { executor } = setup([external("srv_echo", () => Promise.resolve(""))]);
  await executor.prewarm();
  assert.deepEqual(await executor.processIds("srv_echo"), []);
  await executor.close();
});
