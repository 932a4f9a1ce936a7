import assert from "node:assert/strict";
import { CallRecords } from "../../src/call/records.ts";
import type { ToolCallRequest } from "../../src/tool/call.ts";

const call: ToolCallRequest = {
  callId: "c",
  name: "t",
  toolId: "0".repeat(64),
  arguments: {},
  deadlineMs: 1_000,
  sessionId: "s",
  runId: "r",
};

Deno.test("CallRecords.progress() leaves out absent total and message", () => {
  const records = new CallRecords();
  assert.deepEqual(records.progress(call, "t", { progress: 1 }), {
    type: "tool.progress",
    run_id: "r",
    call_id: "c",
    name: "t",
    progress: 1,
  });
  assert.deepEqual(records.progress(call, "t", { progress: 1, total: 2, message: "m" }), {
    type: "tool.progress",
    run_id: "r",
    call_id: "c",
    name: "t",
    progress: 1,
    total: 2,
    message: "m",
  });
});

Deno.test("CallRecords.log() names the run of the call the output belongs to", () => {
  const records = new CallRecords();
  const log = { callId: "c", name: "t", text: "hello\n", bytes: 6, truncatedBytes: 0 };
  assert.deepEqual(records.log({ ...call, runId: "r2" }, log), {
    type: "tool.log",
    run_id: "r2",
    call_id: "c",
    name: "t",
    text: "hello\n",
    bytes: 6,
    truncated_bytes: 0,
  });
});
