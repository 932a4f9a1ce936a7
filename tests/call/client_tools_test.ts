import assert from "node:assert/strict";
import type { AgentEvent } from "../../src/client/events.ts";
import type { CallExecutor, ToolCallRequest, ToolCallResult } from "../../src/tool/call.ts";
import { ToolCallSession } from "../../src/call/client_tools.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import type { ClientToolResultParams } from "../../src/protocol/schemas/mod.ts";
import type { SummaryInput } from "../../src/summary/records.ts";
import { AROUND_MIN_CHARS, encodeRequest } from "../../src/client/request_frame.ts";
import { requestFrame } from "../../src/protocol/envelope.ts";
import { encodeFrame } from "../../src/protocol/framing.ts";
import type { JsonObject } from "../../src/protocol/json.ts";
import { INPUT_FRAME_BYTES } from "../../src/protocol/limits.ts";
import { drainMicrotasks } from "../_fake_time.ts";
import { eventually } from "../_kit/mod.ts";

// Stand-ins: an executor that waits for its signal or a release, and a sender that records
// every part and answers when told to.

function callEvent(callId: string): AgentEvent {
  return {
    event: "client.tool.call",
    seq: 1,
    data: {
      session_id: "s",
      run_id: "r",
      call_id: callId,
      name: "t",
      tool_id: "a".repeat(64),
      arguments: { x: 1 },
      deadline_ms: 1000,
    },
  };
}

function cancelEvent(callId: string): AgentEvent {
  return {
    event: "client.tool.cancel",
    seq: 2,
    data: { session_id: "s", run_id: "r", call_id: callId, reason: "run_cancelled" },
  };
}

function result(outcome: ToolCallResult["outcome"], parts: string[]): ToolCallResult {
  return {
    outcome,
    text: parts.join(""),
    parts,
    bytes: 0,
    durationMs: 1,
    abandoned: false,
    killed: false,
  };
}

class Executor implements CallExecutor {
  signals: AbortSignal[] = [];
  parts: string[] = ["a", "b", "c"];
  execute(_call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallResult> {
    this.signals.push(signal);
    if (signal.aborted) return Promise.resolve(result("cancelled", ["stopped"]));
    return new Promise((resolve) => {
      signal.addEventListener("abort", () => resolve(result("cancelled", ["stopped"])), {
        once: true,
      });
      // A call that takes a turn of the event loop (no timer: nothing here depends on time).
      if (this.parts.length > 0) {
        void drainMicrotasks().then(() => resolve(result("success", this.parts)));
      }
    });
  }
}

class Sender {
  sent: ClientToolResultParams[] = [];
  #resolvers: (() => void)[] = [];
  reject: ProtocolError | null = null;
  clientToolResult(params: ClientToolResultParams): Promise<unknown> {
    this.sent.push(params);
    return new Promise((resolve, reject) => {
      this.#resolvers.push(() => (this.reject ? reject(this.reject) : resolve({})));
    });
  }
  answerAll(): void {
    for (const r of this.#resolvers.splice(0)) r();
  }
}

/** Wait for `check()` to hold, a turn of the event loop at a time, at most 10 s. */
async function until(check: () => boolean): Promise<void> {
  assert.ok(await eventually(check, 10_000, 0), "condition not reached");
}

Deno.test("ToolCallSession pipelines all result parts in order before any answer", async () => {
  const executor = new Executor();
  const sender = new Sender();
  const records: SummaryInput[] = [];
  const session = new ToolCallSession(sender, executor, { onRecord: (r) => records.push(r) });
  session.handle(callEvent("c1"));
  await until(() => sender.sent.length === 3);
  assert.deepEqual(sender.sent.map((p) => [p.part, p.last_part, p.text]), [
    [0, false, "a"],
    [1, false, "b"],
    [2, true, "c"],
  ]);
  sender.answerAll();
  await session.idle();
  const done = records.find((r) => r.type === "tool.result");
  assert.ok(done?.type === "tool.result" && done.delivery === "complete" && done.parts === 3);
  const call = records.find((r) => r.type === "tool.call");
  assert.ok(call?.type === "tool.call" && call.arguments_bytes === 7);
});

Deno.test("ToolCallSession marks the long parts the split found plain ASCII, and only them", async () => {
  const long = "x".repeat(AROUND_MIN_CHARS);
  const parts = [long, long, "short", long];
  const executor: CallExecutor = {
    execute: () =>
      Promise.resolve({ ...result("success", parts), plainAscii: [true, false, true] }),
  };
  const sender = new Sender();
  const session = new ToolCallSession(sender, executor);
  session.handle(callEvent("c1"));
  await until(() => sender.sent.length === 4);
  // Part 1 is not plain, part 2 too short, part 3 unknown (no flag).
  assert.deepEqual(sender.sent.map((p) => Object.getOwnPropertySymbols(p).length), [1, 0, 0, 0]);
  for (const params of sender.sent) {
    const id = `r${params.part}`;
    assert.deepEqual(
      encodeRequest(id, "client.tool.result", params as JsonObject, null),
      encodeFrame(requestFrame(id, "client.tool.result", { ...params }), INPUT_FRAME_BYTES + 1),
    );
  }
  sender.answerAll();
  await session.idle();
});

Deno.test("ToolCallSession aborts the call's signal on client.tool.cancel", async () => {
  const executor = new Executor();
  executor.parts = [];
  const sender = new Sender();
  const session = new ToolCallSession(sender, executor);
  session.handle(callEvent("c1"));
  session.handle(cancelEvent("c1"));
  assert.equal(executor.signals[0]?.aborted, true);
  await until(() => sender.sent.length === 1);
  assert.equal(sender.sent[0]?.outcome, "cancelled");
  sender.answerAll();
  await session.idle();
});

Deno.test("ToolCallSession honours a cancel that arrives before its call", async () => {
  const executor = new Executor();
  const sender = new Sender();
  const session = new ToolCallSession(sender, executor);
  session.handle(cancelEvent("c9"));
  session.handle(callEvent("c9"));
  assert.equal(executor.signals[0]?.aborted, true);
  await until(() => sender.sent.length === 1);
  sender.answerAll();
  await session.idle();
});

Deno.test("ToolCallSession records stale_call after a cancel as rejected, not fatal", async () => {
  const executor = new Executor();
  const sender = new Sender();
  sender.reject = new ProtocolError("stale_call");
  const records: SummaryInput[] = [];
  const session = new ToolCallSession(sender, executor, { onRecord: (r) => records.push(r) });
  session.handle(callEvent("c1"));
  await until(() => sender.sent.length === 3);
  sender.answerAll();
  await session.idle();
  const done = records.find((r) => r.type === "tool.result");
  assert.ok(done?.type === "tool.result");
  assert.equal(done.delivery, "rejected");
  assert.equal(done.delivery_error, "stale_call");
});

Deno.test("ToolCallSession echoes arguments only as an opt-in, shortened preview", async () => {
  for (const preview of [false, true]) {
    const executor = new Executor();
    const sender = new Sender();
    const records: SummaryInput[] = [];
    const session = new ToolCallSession(sender, executor, {
      onRecord: (r) => records.push(r),
      argumentsPreview: preview,
    });
    const event = callEvent("c1");
    if (event.event === "client.tool.call") event.data.arguments = { x: 1, s: "é".repeat(300) };
    session.handle(event);
    await until(() => sender.sent.length === 3);
    sender.answerAll();
    await session.idle();
    const call = records.find((r) => r.type === "tool.call");
    assert.ok(call?.type === "tool.call");
    if (!preview) {
      assert.equal("arguments_preview" in call, false);
      continue;
    }
    const text = call.arguments_preview ?? "";
    assert.ok(text.startsWith('{"x":1,"s":"éé'), text);
    assert.ok(text.endsWith("…"));
    assert.ok(new TextEncoder().encode(text).length <= 200);
  }
});

Deno.test("ToolCallSession sends several parts inside the sender's together(), a single part outside it", async () => {
  for (const parts of [["a", "b", "c"], ["only"]]) {
    const executor = new Executor();
    executor.parts = parts;
    const log: string[] = [];
    const sender = new (class extends Sender {
      together<T>(send: () => T): T {
        log.push("together:start");
        const sent = send();
        log.push("together:end");
        return sent;
      }
      override clientToolResult(params: ClientToolResultParams): Promise<unknown> {
        log.push(`part ${params.part}`);
        return super.clientToolResult(params);
      }
    })();
    const session = new ToolCallSession(sender, executor);
    session.handle(callEvent("c1"));
    await until(() => sender.sent.length === parts.length);
    assert.deepEqual(
      log,
      parts.length > 1
        ? ["together:start", "part 0", "part 1", "part 2", "together:end"]
        : ["part 0"],
    );
    sender.answerAll();
    await session.idle();
  }
});
