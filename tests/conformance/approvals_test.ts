/**
 * Approvals: a write tool is gated by `approval.requested`; exactly one answer wins;
 * denial never emits the call; stale identities are rejected.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { withBackend, Workspace } from "./_harness.ts";
import {
  answerApproval,
  initialize,
  ofRun,
  readTool,
  resultParams,
  runEvents,
  startTurn,
  toolPrompt,
  waitFinished,
  writeTool,
} from "./_fixtures.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOOLS = [readTool(), writeTool()];
const PROMPT = toolPrompt([["save_note", { text: "remember this" }]]);

Deno.test("a write tool asks approval before any client.tool.call; allow leads to the call", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, PROMPT);
    const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
    assert.match(String(asked.data.approval_id), UUID);
    assert.equal(typeof asked.data.summary, "string");
    assert.ok(Number.isInteger(asked.data.expires_in_ms));
    assert.ok(
      (asked.data.expires_in_ms as number) > 0 && (asked.data.expires_in_ms as number) <= 60_000,
    );
    await b.settle(200);
    assert.equal(
      runEvents(b, run).some((e) => e.event === "client.tool.call"),
      false,
      "no call before the answer",
    );
    const res = await b.call("approval.answer", {
      session_id: run.sessionId,
      run_id: run.runId,
      approval_id: asked.data.approval_id,
      allow: true,
    });
    assert.deepEqual(res, { recorded: true });
    const call = await b.waitEvent("client.tool.call", ofRun(run), { from: asked.index });
    assert.equal(call.data.name, "save_note");
    assert.deepEqual(call.data.arguments, { text: "remember this" });
    await b.call("client.tool.result", resultParams(run, call.data.call_id, "saved"));
    assert.equal((await waitFinished(b, run)).data.outcome, "completed");
  });
});

Deno.test("a denied write tool emits no client.tool.call and the run completes", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, PROMPT);
    await answerApproval(b, run, false);
    const fin = await waitFinished(b, run);
    assert.equal(fin.data.outcome, "completed");
    assert.equal(runEvents(b, run).some((e) => e.event === "client.tool.call"), false);
  });
});

Deno.test("a read tool runs without approval", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, toolPrompt([["lookup", { q: "x" }]]));
    const call = await b.waitEvent("client.tool.call", ofRun(run), { from: run.from });
    await b.call("client.tool.result", resultParams(run, call.data.call_id, "found"));
    await waitFinished(b, run);
    assert.equal(runEvents(b, run).some((e) => e.event === "approval.requested"), false);
  });
});

Deno.test("answering an approval twice is stale_approval for the second answer", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, PROMPT);
    const asked = await answerApproval(b, run, false);
    const again = await b.request("approval.answer", {
      session_id: run.sessionId,
      run_id: run.runId,
      approval_id: asked.data.approval_id,
      allow: true,
    });
    assert.deepEqual(again.error, { code: "stale_approval" });
    await waitFinished(b, run);
    assert.equal(
      runEvents(b, run).some((e) => e.event === "client.tool.call"),
      false,
      "never authorized",
    );
  });
});

Deno.test("an unknown approval ID is stale_approval; malformed answers are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, PROMPT);
    const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
    const base = { session_id: run.sessionId, run_id: run.runId };
    const unknown = await b.request("approval.answer", {
      ...base,
      approval_id: "00000000-0000-4000-8000-000000000000",
      allow: true,
    });
    assert.deepEqual(unknown.error, { code: "stale_approval" });
    for (
      const params of [
        { ...base, approval_id: asked.data.approval_id, allow: "yes" },
        { ...base, approval_id: asked.data.approval_id },
        { ...base, approval_id: asked.data.approval_id, allow: true, note: "x" },
      ]
    ) {
      assert.deepEqual((await b.request("approval.answer", params)).error, {
        code: "invalid_params",
      });
    }
    await b.call("approval.answer", { ...base, approval_id: asked.data.approval_id, allow: false });
    await waitFinished(b, run);
  });
});

Deno.test("an approval pending when the run is cancelled is denied and becomes stale", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, TOOLS);
    const run = await startTurn(b, PROMPT);
    const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
    await b.call("turn.cancel", { session_id: run.sessionId, run_id: run.runId });
    const fin = await waitFinished(b, run);
    assert.equal(fin.data.outcome, "cancelled");
    const late = await b.request("approval.answer", {
      session_id: run.sessionId,
      run_id: run.runId,
      approval_id: asked.data.approval_id,
      allow: true,
    });
    // The identity expired with the run: stale_approval (stale_run is also a fair reading).
    assert.ok(
      late.error?.code === "stale_approval" || late.error?.code === "stale_run",
      `got ${JSON.stringify(late.error)}`,
    );
    assert.equal(runEvents(b, run).some((e) => e.event === "client.tool.call"), false);
  });
});

Deno.test({
  name: "a built-in tool needing approval reports activity only after allow (reference scenario)",
  ignore: !REFERENCE,
  fn: async () => {
    const ws = await Workspace.create();
    try {
      const scenario = await ws.writeScenario({
        turns: [{
          steps: [
            { builtin: "shell", approval: true, summary: "Run the tests" },
            { say: "done" },
          ],
        }],
      });
      await withBackend({ workspace: ws, env: { MAGI_SCENARIO: scenario } }, async (b) => {
        await initialize(b);
        const run = await startTurn(b, "run the tests");
        const asked = await answerApproval(b, run, true);
        const started = await b.waitEvent(
          "activity",
          (d) => ofRun(run)(d) && d.state === "started",
          { from: asked.index },
        );
        assert.equal(started.data.kind, "tool");
        assert.equal(started.data.name, "shell");
        await b.waitEvent("activity", (d) => ofRun(run)(d) && d.state === "completed");
        assert.equal((await waitFinished(b, run)).data.outcome, "completed");
      });
    } finally {
      await ws.dispose();
    }
  },
});

Deno.test({
  name:
    "an unanswered approval expires: default deny, no call, the run completes; a late answer is stale_approval (reference, MAGI_APPROVAL_EXPIRY_MS)",
  ignore: !REFERENCE,
  fn: async () => {
    const ws = await Workspace.create();
    try {
      const scenario = await ws.writeScenario({
        turns: [{
          steps: [
            { call: { tool: "save_note", arguments: { text: "x" }, label: "note" } },
            { diagnostic: { code: "after_approval", summary: "The approval was decided" } },
            { sleep: 1_000 },
            { say: "{{results}}" },
          ],
        }],
      });
      const env = { MAGI_SCENARIO: scenario, MAGI_APPROVAL_EXPIRY_MS: "300" };
      await withBackend({ workspace: ws, env }, async (b) => {
        const init = await initialize(b, TOOLS);
        const limits = init.limits as Record<string, unknown>;
        assert.equal(limits.approval_expiry_ms, 300, "the advertised bound is the effective one");
        const run = await startTurn(b, "save a note");
        const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
        const expires = asked.data.expires_in_ms as number;
        assert.ok(expires > 0 && expires <= 300, `expires_in_ms ${expires}`);
        // Nobody answers: expiry decides, the run goes on to its next step.
        await b.waitEvent("diagnostic", (d) => ofRun(run)(d) && d.code === "after_approval", {
          from: asked.index,
        });
        const late = await b.request("approval.answer", {
          session_id: run.sessionId,
          run_id: run.runId,
          approval_id: asked.data.approval_id,
          allow: true,
        });
        assert.deepEqual(late.error, { code: "stale_approval" }, "expired: never authorized");
        const fin = await waitFinished(b, run);
        assert.equal(fin.data.outcome, "completed");
        assert.equal(runEvents(b, run).some((e) => e.event === "client.tool.call"), false);
        const reply = runEvents(b, run).filter((e) => e.event === "message.reconcile")
          .map((e) => String(e.data.text)).join("");
        assert.equal(reply, "save_note → denied", "the model saw a denied result");
      });
    } finally {
      await ws.dispose();
    }
  },
});
