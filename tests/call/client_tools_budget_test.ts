import assert from "node:assert/strict";
import type { AgentEvent } from "../../src/client/events.ts";
import { REQUEST_ID_RESERVE } from "../../src/client/connection.ts";
import { RequestBudgetExhausted } from "../../src/client/errors.ts";
import type { CallExecutor, ToolCallRequest, ToolCallResult } from "../../src/tool/call.ts";
import { ToolCallSession } from "../../src/call/client_tools.ts";
import type { ClientToolResultParams } from "../../src/protocol/schemas/mod.ts";
import type { SummaryInput } from "../../src/summary/records.ts";

// Stand-ins: an executor answering with a fixed number of parts, and a sender with a
// request-ID budget that, like the connection, refuses requests that dip into the reserve.

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
      arguments: {},
      deadline_ms: 1000,
    },
  };
}

class Executor implements CallExecutor {
  runs: string[] = [];
  constructor(readonly parts: number) {}
  execute(call: ToolCallRequest): Promise<ToolCallResult> {
    this.runs.push(call.callId);
    const parts = Array.from({ length: this.parts }, (_, i) => `p${i}`);
    return Promise.resolve({
      outcome: "success",
      text: parts.join(""),
      parts,
      bytes: 0,
      durationMs: 1,
      abandoned: false,
      killed: false,
    });
  }
}

class BudgetSender {
  sent: ClientToolResultParams[] = [];
  constructor(public remainingRequestIds: number) {}
  clientToolResult(params: ClientToolResultParams): Promise<unknown> {
    if (this.remainingRequestIds <= REQUEST_ID_RESERVE) {
      return Promise.reject(
        new RequestBudgetExhausted("client.tool.result", this.remainingRequestIds),
      );
    }
    this.remainingRequestIds--;
    this.sent.push(params);
    return Promise.resolve({ recorded: true, complete: params.last_part });
  }
}

Deno.test("ToolCallSession sends no part of a result that does not fit the request-ID budget, then answers nothing more", async () => {
  const executor = new Executor(3);
  const sender = new BudgetSender(REQUEST_ID_RESERVE + 5);
  const records: SummaryInput[] = [];
  const exhausted: RequestBudgetExhausted[] = [];
  const session = new ToolCallSession(sender, executor, {
    onRecord: (r) => records.push(r),
    onRequestBudgetExhausted: (e) => exhausted.push(e),
  });
  session.handle(callEvent("c1"));
  await session.idle();
  assert.equal(sender.sent.length, 3, "the first call's three parts fit");
  session.handle(callEvent("c2"));
  await session.idle();
  assert.equal(sender.sent.length, 3, "two IDs left above the reserve: no part of three is sent");
  assert.equal(exhausted.length, 1);
  assert.equal(exhausted[0]!.method, "client.tool.result");
  assert.equal(session.requestBudgetExhausted, exhausted[0]);
  const last = records.at(-1);
  assert.ok(last?.type === "tool.result");
  assert.equal(last.delivery, "failed");
  assert.equal(last.delivery_error, "RequestBudgetExhausted");
  session.handle(callEvent("c3"));
  await session.idle();
  assert.deepEqual(executor.runs, ["c1", "c2"], "no call runs after the budget ran out");
  assert.equal(sender.sent.length, 3);
  assert.equal(exhausted.length, 1, "told once");
});

Deno.test("ToolCallSession does not run a call when not even one result part fits", async () => {
  const executor = new Executor(1);
  const sender = new BudgetSender(REQUEST_ID_RESERVE);
  let told = 0;
  const session = new ToolCallSession(sender, executor, {
    onRequestBudgetExhausted: () => told++,
  });
  session.handle(callEvent("c1"));
  await session.idle();
  assert.deepEqual(executor.runs, []);
  assert.equal(told, 1);
});
