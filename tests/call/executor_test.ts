import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool, type Tool, type ToolContext } from "../../src/tool/define.ts";
import {
  answerGraceMs,
  type ExecutorOptions,
  type ToolCallRequest,
  type ToolCallResult,
  ToolExecutor,
} from "../../src/call/executor.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS, type ClientToolsLimits } from "../../src/protocol/limits.ts";
import { drainMicrotasks, FakeTime } from "../_fake_time.ts";

type Run = (args: Record<string, unknown>, ctx: ToolContext) => unknown;

function tool(
  name: string,
  run: Run,
  extra: { timeoutMs?: number; input?: z.ZodObject } = {},
): Tool {
  return defineTool({
    name,
    description: `Test tool ${name}.`,
    input: extra.input ?? z.object({}),
    effect: "read",
    isolation: "inline",
    run,
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });
}

function setup(
  tools: Tool[],
  options: { limits?: Partial<ClientToolsLimits> } & Partial<Omit<ExecutorOptions, "limits">> = {},
) {
  const registry = ToolRegistry.fromLoaded(
    tools.map((entry) => ({
      tool: entry,
      file: `tools/${entry.name}.ts`,
      url: `file:///${entry.name}.ts`,
    })),
  );
  const { limits, ...rest } = options;
  const executor = new ToolExecutor(registry, {
    limits: { ...CLIENT_TOOLS_LIMITS, ...limits },
    cwd: "/work",
    graceMs: 30,
    ...rest,
  });
  let next = 0;
  const call = (
    name: string,
    args: unknown = {},
    extra: Partial<ToolCallRequest> = {},
  ): ToolCallRequest => ({
    callId: `call-${next++}`,
    name,
    toolId: registry.get(name)?.toolId ?? "0".repeat(64),
    arguments: args,
    deadlineMs: 60_000,
    sessionId: "s1",
    runId: "r1",
    ...extra,
  });
  return { executor, call, registry };
}

/** Silence console.error (tool stacks) for one test, keeping what was printed. */
async function capturingStderr<T>(fn: () => Promise<T>): Promise<{ value: T; printed: string }> {
  const original = console.error;
  const lines: string[] = [];
  console.error = (...args: unknown[]) => lines.push(args.map(String).join(" "));
  try {
    return { value: await fn(), printed: lines.join("\n") };
  } finally {
    console.error = original;
  }
}

const never = new AbortController().signal;

function expectResult(result: ToolCallResult, expected: Partial<ToolCallResult>) {
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(
      result[key as keyof ToolCallResult],
      value,
      `${key} of ${JSON.stringify(result)}`,
    );
  }
}

Deno.test("execute() returns a string result as-is", async () => {
  const { executor, call } = setup([tool("echo", () => "héllo")]);
  const result = await executor.execute(call("echo"), never);
  expectResult(result, {
    outcome: "success",
    text: "héllo",
    parts: ["héllo"],
    bytes: 6,
    abandoned: false,
  });
  assert.equal(result.errorCode, undefined);
  assert.ok(result.durationMs >= 0);
});

Deno.test("execute() returns a JSON value as JSON text and passes parsed arguments and context", async () => {
  let seen: ToolContext | undefined;
  const input = z.object({ n: z.number(), label: z.string().default("x") });
  const { executor, call } = setup([tool("calc", (args, ctx) => {
    seen = ctx;
    return { doubled: (args["n"] as number) * 2, label: args["label"] };
  }, { input })]);
  const before = Date.now();
  const result = await executor.execute(call("calc", { n: 21 }, { deadlineMs: 5_000 }), never);
  expectResult(result, { outcome: "success", text: '{"doubled":42,"label":"x"}' });
  assert.equal(seen?.callId, "call-0");
  assert.equal(seen?.sessionId, "s1");
  assert.equal(seen?.runId, "r1");
  assert.equal(seen?.cwd, "/work");
  // The host stops the tool DELIVERY_MARGIN_MS before the backend's deadline.
  assert.ok(seen!.deadline >= before + 4_500 - 50 && seen!.deadline <= Date.now() + 4_500);
  assert.equal(seen?.signal.aborted, false);
});

Deno.test("execute() answers invalid_arguments with a short reason and does not run the tool", async () => {
  let runs = 0;
  const input = z.strictObject({ path: z.string(), offset: z.int().min(0).optional() });
  const { executor, call } = setup([tool("read", () => runs++, { input })]);
  const result = await executor.execute(
    call("read", { path: 3, offset: -1, ["k".repeat(10_000)]: 1 }),
    never,
  );
  expectResult(result, { outcome: "error", errorCode: "invalid_arguments" });
  assert.match(result.text, /^Invalid arguments: path: expected string, received number; offset: /);
  assert.ok(result.bytes <= 520, `${result.bytes} bytes`);
  assert.equal(runs, 0);
});

Deno.test("execute() names a missing argument as required", async () => {
  const input = z.strictObject({ path: z.string(), count: z.int() });
  const { executor, call } = setup([tool("read", () => "", { input })]);
  const result = await executor.execute(call("read", {}), never);
  expectResult(result, { outcome: "error", errorCode: "invalid_arguments" });
  assert.equal(result.text, "Invalid arguments: path: required; count: required");
});

Deno.test("execute() answers invalid_arguments for arguments that are not an object", async () => {
  const { executor, call } = setup([tool("t", () => "")]);
  const result = await executor.execute(call("t", "text"), never);
  expectResult(result, { outcome: "error", errorCode: "invalid_arguments" });
  assert.match(result.text, /^Invalid arguments: \(arguments\): expected object/);
});

Deno.test("execute() answers unknown_tool for a name it did not register, running nothing", async () => {
  let runs = 0;
  const { executor, call } = setup([tool("known", () => runs++)]);
  const result = await executor.execute(call("unknown"), never);
  expectResult(result, {
    outcome: "error",
    errorCode: "unknown_tool",
    text: "Unknown tool: unknown",
  });
  assert.equal(runs, 0);
});

Deno.test("execute() answers unknown_tool for a tool_id mismatch, running nothing", async () => {
  let runs = 0;
  const { executor, call } = setup([tool("known", () => runs++)]);
  const result = await executor.execute(call("known", {}, { toolId: "f".repeat(64) }), never);
  expectResult(result, { outcome: "error", errorCode: "unknown_tool" });
  assert.match(result.text, /^Unknown tool: known \(tool_id does not match/);
  assert.equal(runs, 0);
});

Deno.test("execute() answers tool_failed with the message only; the stack goes to stderr", async () => {
  const { executor, call } = setup([
    tool("rejects", () => Promise.reject(new Error("Disk on fire"))),
    tool("throws", () => {
      throw new TypeError("Sync failure");
    }),
    tool("throws_string", () => {
      throw "just a string";
    }),
  ]);
  const { value, printed } = await capturingStderr(async () => [
    await executor.execute(call("rejects"), never),
    await executor.execute(call("throws"), never),
    await executor.execute(call("throws_string"), never),
  ]);
  expectResult(value[0]!, { outcome: "error", errorCode: "tool_failed", text: "Disk on fire" });
  expectResult(value[1]!, { outcome: "error", errorCode: "tool_failed", text: "Sync failure" });
  expectResult(value[2]!, { outcome: "error", errorCode: "tool_failed", text: "just a string" });
  assert.match(printed, /Tool rejects \(tools\/rejects\.ts\) failed:/);
  assert.match(printed, /at /, "a stack trace is printed to stderr");
});

Deno.test("execute() bounds a huge error message", async () => {
  const { executor, call } = setup([tool("loud", () => {
    throw new Error("x".repeat(100_000));
  })]);
  const { value } = await capturingStderr(() => executor.execute(call("loud"), never));
  assert.equal(value.errorCode, "tool_failed");
  assert.ok(value.bytes <= 1_024);
  assert.ok(value.text.endsWith("…"));
});

Deno.test("execute() answers tool_failed for a result with no JSON form", async () => {
  const { executor, call } = setup([tool("big", () => ({ n: 1n }))]);
  const result = await executor.execute(call("big"), never);
  expectResult(result, {
    outcome: "error",
    errorCode: "tool_failed",
    text: 'Tool result is not JSON-serializable: a bigint at key "n"',
  });
});

Deno.test("execute() answers cancelled when the caller's signal fires during the run", async () => {
  let toolSignal: AbortSignal | undefined;
  const { executor, call } = setup([tool("slow", (_args, ctx) => {
    toolSignal = ctx.signal;
    return new Promise((_resolve, reject) => {
      ctx.signal.addEventListener(
        "abort",
        () => reject(new DOMException("Aborted", "AbortError")),
        { once: true },
      );
    });
  })]);
  const controller = new AbortController();
  const pending = executor.execute(call("slow"), controller.signal);
  await Promise.resolve();
  assert.equal(executor.running, 1);
  controller.abort();
  const result = await pending;
  expectResult(result, { outcome: "cancelled", text: "Tool call cancelled", abandoned: false });
  assert.equal(result.errorCode, undefined);
  assert.equal(toolSignal?.aborted, true);
  assert.equal(executor.running, 0);
});

Deno.test("execute() answers cancelled, not success, for a tool that returns after the cancel", async () => {
  const { executor, call } = setup([tool("late", (_args, ctx) =>
    new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve("done anyway"), { once: true });
    }))]);
  const controller = new AbortController();
  const pending = executor.execute(call("late"), controller.signal);
  controller.abort();
  expectResult(await pending, { outcome: "cancelled" });
});

Deno.test("answerGraceMs() keeps half the cancel grace, at most 500 ms, for delivery", () => {
  const table: [number, number][] = [[2_000, 1_500], [600, 300], [0, 0], [10_000, 9_500]];
  for (const [grace, expected] of table) assert.equal(answerGraceMs(grace), expected, `${grace}`);
});

Deno.test("execute() stops a tool a delivery margin before the backend's deadline_ms", async () => {
  let deadline = 0;
  let stoppedAt = 0;
  const time = new FakeTime();
  const { executor, call } = setup([
    tool("wait", (_args, ctx) => {
      deadline = ctx.deadline;
      return new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          stoppedAt = time.now();
          reject(new Error("stopped"));
        })
      );
    }),
  ], { clock: time });
  const before = Date.now();
  const pending = executor.execute(call("wait", {}, { deadlineMs: 100 }), never);
  await time.tick(49);
  assert.equal(stoppedAt, 0, "not stopped before the margin");
  await time.tick(1);
  const result = await pending;
  assert.equal(stoppedAt, 50, "stopped 50 ms after the call");
  expectResult(result, { outcome: "error", errorCode: "timeout" });
  assert.match(result.text, /deadline of 100 ms/);
  // Half of a 100 ms deadline is kept back: the tool's deadline is 50 ms after the call.
  assert.ok(deadline >= before + 45 && deadline < before + 100, `${deadline - before} ms`);
});

Deno.test("execute() abandons a tool that ignores the signal after the grace period", async () => {
  const time = new FakeTime();
  const { executor, call } = setup([tool("stubborn", () => new Promise(() => {}))], {
    graceMs: 20,
    clock: time,
  });
  const controller = new AbortController();
  let answered = false;
  const pending = executor.execute(call("stubborn"), controller.signal).finally(() =>
    answered = true
  );
  controller.abort();
  await time.tick(19);
  assert.equal(answered, false, "the grace has not run out");
  await time.tick(1);
  const result = await pending;
  expectResult(result, { outcome: "cancelled", abandoned: true });
  assert.equal(
    result.text,
    "Tool call cancelled; the tool did not stop within 20 ms of being signalled and was abandoned",
  );
  assert.equal(executor.running, 0, "an abandoned tool's slot is freed");
});

Deno.test("execute() answers cancelled without running when the signal fired before", async () => {
  let runs = 0;
  const { executor, call } = setup([tool("t", () => runs++)]);
  const result = await executor.execute(call("t"), AbortSignal.abort());
  expectResult(result, { outcome: "cancelled", abandoned: false });
  assert.equal(runs, 0);
});

Deno.test("execute() answers timeout when the backend's deadline passes", async () => {
  const time = new FakeTime();
  const { executor, call } = setup([tool("slow", (_args, ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    }))], { clock: time });
  const pending = executor.execute(call("slow", {}, { deadlineMs: 30 }), never);
  await time.tick(30);
  const result = await pending;
  expectResult(result, {
    outcome: "error",
    errorCode: "timeout",
    text: "Tool call timed out: the call deadline of 30 ms passed",
    abandoned: false,
  });
});

Deno.test("execute() answers timeout and abandons a tool that ignores the deadline", async () => {
  const time = new FakeTime();
  const { executor, call } = setup([tool("stuck", () => new Promise(() => {}))], {
    graceMs: 10,
    clock: time,
  });
  const pending = executor.execute(call("stuck", {}, { deadlineMs: 10 }), never);
  // The deadline (10 ms less its 5 ms margin), then the 10 ms grace.
  await time.tick(15);
  const result = await pending;
  expectResult(result, { outcome: "error", errorCode: "timeout", abandoned: true });
  assert.match(
    result.text,
    /^Tool call timed out: the call deadline of 10 ms passed; the tool did not stop/,
  );
});

Deno.test("execute() enforces the tool's own timeoutMs when shorter than the deadline", async () => {
  const time = new FakeTime();
  const { executor, call } = setup([
    tool("bounded", (_args, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("stopped")), { once: true });
      }), { timeoutMs: 1_000 }),
  ], { clock: time });
  const pending = executor.execute(call("bounded", {}, { deadlineMs: 60_000 }), never);
  await time.tick(1_000);
  const result = await pending;
  expectResult(result, {
    outcome: "error",
    errorCode: "timeout",
    text: "Tool call timed out: the tool's timeout of 1000 ms passed",
  });
});

Deno.test("execute() accepts a result of exactly result_bytes and rejects one byte more", async () => {
  const { executor, call } = setup([
    tool("exact", () => "é".repeat(50)),
    tool("over", () => "é".repeat(50) + "x"),
    // Longer than the limit in UTF-16 units too (rejected before splitting), with its exact size.
    tool("long", () => "é".repeat(101)),
  ], { limits: { result_bytes: 100 } });
  expectResult(await executor.execute(call("exact"), never), { outcome: "success", bytes: 100 });
  expectResult(await executor.execute(call("over"), never), {
    outcome: "error",
    errorCode: "result_too_large",
    text: "Result too large: 101 bytes exceeds the limit of 100 bytes",
  });
  expectResult(await executor.execute(call("long"), never), {
    outcome: "error",
    errorCode: "result_too_large",
    text: "Result too large: 202 bytes exceeds the limit of 100 bytes",
  });
});

Deno.test("execute() splits a result into parts and rejects more parts than result_parts", async () => {
  const { executor, call } = setup([
    tool("two", () => "a".repeat(20)),
    tool("three", () => "a".repeat(21)),
  ], { limits: { result_part_bytes: 10, result_parts: 2 } });
  expectResult(await executor.execute(call("two"), never), {
    outcome: "success",
    parts: ["a".repeat(10), "a".repeat(10)],
  });
  expectResult(await executor.execute(call("three"), never), {
    outcome: "error",
    errorCode: "result_too_large",
    text: "Result too large: 21 bytes needs 3 parts, more than the limit of 2 parts",
  });
});

Deno.test("execute() splits a large result under the default limits and envelope", async () => {
  const { executor, call } = setup([tool("big", () => '"'.repeat(40_000))]);
  const result = await executor.execute(call("big"), never);
  assert.equal(result.outcome, "success");
  assert.equal(result.parts.join(""), result.text);
  assert.ok(result.parts.length >= 3, "escaping shrinks parts below result_part_bytes");
});

Deno.test("execute() never runs more than concurrent_calls tools at once, in FIFO order", async () => {
  let active = 0;
  let peak = 0;
  const started: number[] = [];
  const gates: PromiseWithResolvers<void>[] = [];
  const { executor, call } = setup([tool("gated", async (args) => {
    started.push(args["i"] as number);
    active++;
    peak = Math.max(peak, active);
    const gate = Promise.withResolvers<void>();
    gates.push(gate);
    await gate.promise;
    active--;
    return `done ${args["i"]}`;
  }, { input: z.object({ i: z.number() }) })], { limits: { concurrent_calls: 2 } });
  const pending = Array.from(
    { length: 5 },
    (_, i) => executor.execute(call("gated", { i }), never),
  );
  await drainMicrotasks();
  assert.equal(executor.running, 2);
  assert.deepEqual(started, [0, 1]);
  while (started.length < 5 || gates.length > 0) {
    gates.shift()?.resolve();
    await drainMicrotasks();
    assert.ok(executor.running <= 2);
  }
  const results = await Promise.all(pending);
  assert.deepEqual(results.map((result) => result.text), [0, 1, 2, 3, 4].map((i) => `done ${i}`));
  assert.deepEqual(started, [0, 1, 2, 3, 4]);
  assert.equal(peak, 2);
  assert.equal(executor.running, 0);
});

Deno.test("execute() answers a queued call cancelled without running it when its signal fires", async () => {
  const gate = Promise.withResolvers<void>();
  const ran: string[] = [];
  const { executor, call } = setup([tool("gated", async (args) => {
    ran.push(args["id"] as string);
    await gate.promise;
    return "ok";
  }, { input: z.object({ id: z.string() }) })], { limits: { concurrent_calls: 1 } });
  const first = executor.execute(call("gated", { id: "first" }), never);
  const controller = new AbortController();
  const queued = executor.execute(call("gated", { id: "queued" }), controller.signal);
  const third = executor.execute(call("gated", { id: "third" }), never);
  await drainMicrotasks();
  controller.abort();
  expectResult(await queued, { outcome: "cancelled", abandoned: false });
  gate.resolve();
  expectResult(await first, { outcome: "success" });
  expectResult(await third, { outcome: "success" });
  assert.deepEqual(ran, ["first", "third"]);
});

Deno.test("execute() answers timeout without running when the deadline passes in the queue", async () => {
  const time = new FakeTime();
  const gate = Promise.withResolvers<void>();
  let runs = 0;
  const { executor, call } = setup([tool("gated", async () => {
    runs++;
    await gate.promise;
    return "ok";
  })], { limits: { concurrent_calls: 1 }, clock: time });
  const first = executor.execute(call("gated"), never);
  const queued = executor.execute(call("gated", {}, { deadlineMs: 10 }), never);
  await time.tick(5);
  const late = await queued;
  expectResult(late, { outcome: "error", errorCode: "timeout" });
  assert.equal(runs, 1);
  gate.resolve();
  await first;
});
