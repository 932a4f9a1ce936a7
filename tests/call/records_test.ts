import assert from "node:assert/strict";
import { z } from "zod";
import { CallRecords } from "../../src/call/records.ts";
import { ToolCallSession } from "../../src/call/client_tools.ts";
import { ToolExecutor } from "../../src/call/executor.ts";
import { defineTool } from "../../src/tool/define.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import type { SummaryInput } from "../../src/summary/records.ts";
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

Deno.test("one CallRecords shared by the executor and the call session hands every tool.* record to its sink", async () => {
  const sunk: SummaryInput[] = [];
  const progressed: string[] = [];
  const registry = ToolRegistry.fromLoaded([{
    tool: defineTool({
      name: "t",
      description: "Reports progress.",
      input: z.object({}),
      effect: "read",
      isolation: "inline",
      run: (_args, ctx) => {
        ctx.progress(1, 2);
        return "ok";
      },
    }),
    file: "tools/t.ts",
    url: "file:///t.ts",
  }]);
  const records = new CallRecords({ emit: (record) => sunk.push(record) });
  const executor = new ToolExecutor(registry, {
    limits: CLIENT_TOOLS_LIMITS,
    cwd: "/work",
    records,
    onProgress: (callId) => progressed.push(callId),
  });
  const sender = { clientToolResult: () => Promise.resolve({}) };
  const session = new ToolCallSession(sender, executor, {
    records,
    onRecord: () => assert.fail("the shared records' sink receives the session's records"),
  });
  const data = {
    session_id: "s",
    run_id: "r9",
    call_id: "c9",
    name: "t",
    tool_id: registry.get("t")!.toolId,
    arguments: {},
    deadline_ms: 60_000,
  };
  session.handle({ event: "client.tool.call", seq: 1, data });
  await session.idle();
  assert.deepEqual(sunk.map((r) => [r.type, "run_id" in r ? r.run_id : null]), [
    ["tool.call", "r9"],
    ["tool.progress", "r9"],
    ["tool.result", "r9"],
  ]);
  assert.deepEqual(sunk[1], {
    type: "tool.progress",
    run_id: "r9",
    call_id: "c9",
    name: "t",
    progress: 1,
    total: 2,
  });
  // The executor's own onProgress still hears of the update, after the record.
  assert.deepEqual(progressed, ["c9"]);
});
