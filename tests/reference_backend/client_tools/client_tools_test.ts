import assert from "node:assert/strict";
import { CallBook } from "../../../src/reference_backend/client_tools/calls.ts";
import { ApprovalBook } from "../../../src/reference_backend/run/approvals.ts";
import type { RegisteredTool } from "../../../src/reference_backend/client_tools/definitions.ts";

type Emitted = { event: string; data: Record<string, unknown> };

function book(options: { graceMs?: number } = {}) {
  const emitted: Emitted[] = [];
  const calls = new CallBook((event, data) => {
    emitted.push({ event, data });
    return Promise.resolve(true);
  }, options);
  return { calls, emitted };
}

const TOOL: RegisteredTool = {
  name: "t",
  toolId: "0".repeat(64),
  effect: "read",
  timeoutMs: 60_000,
};
const SCOPE = { sessionId: "s", runId: "r" };

async function started(calls: CallBook, emitted: Emitted[], tool = TOOL) {
  const result = calls.start(SCOPE, tool, { a: 1 });
  await new Promise((r) => setTimeout(r, 0));
  const call = emitted.find((e) => e.event === "client.tool.call");
  assert.ok(call !== undefined);
  return { result, callId: call.data.call_id as string };
}

const part = (callId: string, n: number, extra: Record<string, unknown> = {}) => ({
  session_id: "s",
  run_id: "r",
  call_id: callId,
  part: n,
  last_part: false,
  outcome: "success" as const,
  text: "x",
  ...extra,
});

Deno.test("CallBook records parts in order and finalizes on the last part", async () => {
  const { calls, emitted } = book();
  const { result, callId } = await started(calls, emitted);
  assert.deepEqual(calls.submit(part(callId, 0)), { ok: true, complete: false });
  assert.deepEqual(calls.submit(part(callId, 2)), { ok: false, code: "invalid_params" });
  assert.deepEqual(calls.submit(part(callId, 1, { outcome: "error" })), {
    ok: false,
    code: "invalid_params",
  });
  assert.deepEqual(calls.submit(part(callId, 1, { last_part: true, text: "y" })), {
    ok: true,
    complete: true,
  });
  assert.deepEqual(await result, { outcome: "success", errorCode: null, text: "xy" });
  assert.deepEqual(calls.submit(part(callId, 2)), { ok: false, code: "stale_call" });
  assert.deepEqual(emitted.map((e) => [e.event, e.data.state ?? null]), [
    ["activity", "started"],
    ["client.tool.call", null],
    ["activity", "completed"],
  ]);
});

Deno.test("CallBook answers result_limit past result_parts and fails the call", async () => {
  const { calls, emitted } = book();
  const { result, callId } = await started(calls, emitted);
  for (let i = 0; i < 256; i++) assert.ok(calls.submit(part(callId, i)).ok);
  assert.deepEqual(calls.submit(part(callId, 256)), { ok: false, code: "result_limit" });
  const final = await result;
  assert.equal(final.outcome, "failed");
  assert.equal(final.errorCode, "content_limit");
  assert.deepEqual(calls.submit(part(callId, 257)), { ok: false, code: "stale_call" });
});

Deno.test("CallBook cancels a call past its deadline and finalizes it after the grace", async () => {
  const { calls, emitted } = book({ graceMs: 10 });
  const { result } = await started(calls, emitted, { ...TOOL, timeoutMs: 10 });
  const final = await result;
  assert.equal(final.outcome, "cancelled");
  const cancel = emitted.find((e) => e.event === "client.tool.cancel");
  assert.equal(cancel?.data.reason, "deadline");
});

Deno.test("CallBook accepts a cancelled answer within the grace", async () => {
  const { calls, emitted } = book({ graceMs: 60_000 });
  const { result, callId } = await started(calls, emitted);
  calls.cancelRun("r", "run_cancelled");
  assert.deepEqual(calls.submit(part(callId, 0, { outcome: "cancelled", last_part: true })), {
    ok: true,
    complete: true,
  });
  assert.equal((await result).outcome, "cancelled");
});

Deno.test("CallBook finalizes at once when cancelled without grace (shutdown)", async () => {
  const { calls, emitted } = book({ graceMs: 60_000 });
  const { result } = await started(calls, emitted);
  calls.cancelRun("r", "shutdown", { grace: false });
  assert.equal((await result).outcome, "cancelled");
  assert.equal(calls.outstanding("r"), 0);
});

Deno.test("ApprovalBook records one winning answer and denies on expiry", async () => {
  const approvals = new ApprovalBook({ expiryMs: 10 });
  const first = approvals.request(SCOPE);
  const key = { ...SCOPE, approvalId: first.approvalId };
  assert.equal(approvals.answer({ ...key, runId: "other" }, true), false);
  assert.equal(approvals.answer(key, true), true);
  assert.equal(approvals.answer(key, false), false);
  assert.equal(await first.decision, true);
  const second = approvals.request(SCOPE);
  assert.equal(await second.decision, false);
  assert.equal(approvals.answer({ ...SCOPE, approvalId: second.approvalId }, true), false);
});

Deno.test("ApprovalBook denies every pending approval of a cancelled run", async () => {
  const approvals = new ApprovalBook();
  const ticket = approvals.request(SCOPE);
  approvals.denyRun("r");
  assert.equal(await ticket.decision, false);
});
