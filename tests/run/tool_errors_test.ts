import assert from "node:assert/strict";
import { isToolError, ToolErrorTally } from "../../src/run/tool_errors.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";

Deno.test("isToolError: error results, denied approvals and failed tool activities", () => {
  const head = { ts: "t", v: 1 as const, run_id: "r" };
  const result = {
    ...head,
    type: "tool.result" as const,
    call_id: "c",
    name: "n",
    error_code: null,
    bytes: 0,
    parts: 1,
    duration_ms: 0,
    abandoned: false,
    killed: false,
    delivery: "complete" as const,
    delivery_error: null,
  };
  assert.equal(isToolError({ ...result, outcome: "error" }), true);
  assert.equal(isToolError({ ...result, outcome: "success" }), false);
  assert.equal(isToolError({ ...result, outcome: "cancelled" }), false);
  const approval = {
    ...head,
    type: "approval" as const,
    approval_id: "a",
    summary: "s",
    decided_by: "flag" as const,
    recorded: true,
  };
  assert.equal(isToolError({ ...approval, decision: "deny" }), true);
  assert.equal(isToolError({ ...approval, decision: "allow" }), false);
  const activity = {
    ...head,
    type: "activity" as const,
    activity_id: "x",
    name: "shell",
    summary: "s",
  };
  assert.equal(isToolError({ ...activity, kind: "tool", state: "failed" }), true);
  assert.equal(isToolError({ ...activity, kind: "tool", state: "completed" }), false);
  assert.equal(isToolError({ ...activity, kind: "compaction", state: "failed" }), false);
});

Deno.test("ToolErrorTally counts a client call once (its failed activity shares the call ID)", () => {
  const writer = new SummaryWriter(async () => {}, { selfCheck: true });
  const tally = new ToolErrorTally(writer);
  const result = {
    type: "tool.result" as const,
    run_id: "r",
    call_id: "c1",
    name: "fails",
    outcome: "error" as const,
    error_code: "tool_failed",
    bytes: 1,
    parts: 1,
    duration_ms: 1,
    abandoned: false,
    killed: false,
    delivery: "complete" as const,
    delivery_error: null,
  };
  writer.emit(result);
  writer.emit({
    type: "activity",
    run_id: "r",
    activity_id: "c1",
    kind: "tool",
    state: "failed",
    name: "fails",
    summary: "Client tool fails error",
  });
  assert.equal(tally.count, 1);
  writer.emit({ ...result, call_id: "c2" });
  assert.equal(tally.count, 2);
  tally.stop();
  writer.emit({ ...result, call_id: "c3" });
  assert.equal(tally.count, 2);
});
