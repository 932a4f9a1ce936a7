/**
 * `client.tools` calls and results: call events, multi-part results and their errors,
 * bounds, concurrency, cancellation with grace, deadlines and shutdown.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, type EventFrame, withBackend } from "./_harness.ts";
import {
  initialize,
  ofRun,
  readTool,
  resultParams,
  type Run,
  runEvents,
  startTurn,
  toolPrompt,
  waitFinished,
  withScenario,
  writeTool,
} from "./_fixtures.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";

const WIRE_ID = /^[A-Za-z0-9._-]{1,64}$/;

async function oneCall(b: Backend, args: Record<string, unknown> = { q: "x" }) {
  const run = await startTurn(b, toolPrompt([["lookup", args]]));
  const call = await b.waitEvent("client.tool.call", ofRun(run), { from: run.from });
  return { run, call, callId: call.data.call_id };
}

function toolIds(init: Record<string, unknown>): Map<string, string> {
  const desc = (init.descriptors as Record<string, { tools: { name: string; tool_id: string }[] }>)[
    "client.tools"
  ];
  return new Map(desc?.tools.map((t) => [t.name, t.tool_id]) ?? []);
}

function reply(b: Backend, run: Run): string {
  return runEvents(b, run).filter((e) => e.event === "message.reconcile").map((e) =>
    String(e.data.text)
  )
    .join("");
}

Deno.test("client.tool.call carries call_id, name, tool_id, arguments and deadline_ms", async () => {
  await withBackend({}, async (b) => {
    const init = await initialize(b, [readTool(), { ...readTool("slow"), timeout_ms: 5_000 }]);
    const args = { q: "ticket 7", nested: { list: [1, "two", null] } };
    const run = await startTurn(b, toolPrompt([["lookup", args], ["slow", {}]]));
    const first = await b.waitEvent(
      "client.tool.call",
      (d) => ofRun(run)(d) && d.name === "lookup",
    );
    const second = await b.waitEvent("client.tool.call", (d) => ofRun(run)(d) && d.name === "slow");
    for (const call of [first, second]) {
      assert.match(String(call.data.call_id), WIRE_ID);
      assert.equal(call.data.tool_id, toolIds(init).get(String(call.data.name)));
      assert.ok(Number.isInteger(call.data.deadline_ms) && (call.data.deadline_ms as number) > 0);
    }
    assert.notEqual(first.data.call_id, second.data.call_id);
    assert.deepEqual(first.data.arguments, args);
    assert.ok((first.data.deadline_ms as number) <= CLIENT_TOOLS_LIMITS.call_timeout_ms);
    assert.ok((second.data.deadline_ms as number) <= 5_000, "the tool's timeout_ms");
    for (const call of [first, second]) {
      await b.call(
        "client.tool.result",
        resultParams(run, call.data.call_id, `r-${call.data.name}`),
      );
    }
    await waitFinished(b, run);
  });
});

Deno.test("a call is bracketed by tool activity started and completed", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, call, callId } = await oneCall(b);
    const started = runEvents(b, run).find((e) =>
      e.event === "activity" && e.data.name === "lookup" && e.data.state === "started"
    );
    assert.ok(started !== undefined, "activity started by the time the call is emitted");
    assert.equal(started.data.kind, "tool");
    await b.call("client.tool.result", resultParams(run, callId, "ok"));
    const done = await b.waitEvent(
      "activity",
      (d) => ofRun(run)(d) && d.activity_id === started.data.activity_id && d.state !== "started",
      { from: call.index },
    );
    assert.equal(done.data.state, "completed");
    await waitFinished(b, run);
  });
});

Deno.test("activity and approval summaries never carry raw arguments or results", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool(), writeTool()]);
    const run = await startTurn(
      b,
      toolPrompt([["lookup", { q: "RAW-ARG-7731" }], ["save_note", { text: "RAW-ARG-8842" }]]),
    );
    const call = await b.waitEvent("client.tool.call", (d) => ofRun(run)(d) && d.name === "lookup");
    const asked = await b.waitEvent("approval.requested", ofRun(run), { from: run.from });
    await b.call("client.tool.result", resultParams(run, call.data.call_id, "RAW-RESULT-9953"));
    await b.call("approval.answer", {
      session_id: run.sessionId,
      run_id: run.runId,
      approval_id: asked.data.approval_id,
      allow: false,
    });
    await waitFinished(b, run);
    for (const e of runEvents(b, run)) {
      if (e.event !== "activity" && e.event !== "approval.requested") continue;
      const summary = String(e.data.summary);
      for (const raw of ["RAW-ARG-7731", "RAW-ARG-8842", "RAW-RESULT-9953"]) {
        assert.ok(!summary.includes(raw), `${e.event} summary leaks ${raw}: ${summary}`);
      }
    }
  });
});

Deno.test("a multi-part result is recorded in order and complete on the last part", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const parts = ["alpha-", "beta-", "gamma"];
    for (const [i, text] of parts.entries()) {
      const last = i === parts.length - 1;
      const res = await b.call(
        "client.tool.result",
        resultParams(run, callId, text, { part: i, last_part: last }),
      );
      assert.deepEqual(res, { recorded: true, complete: last });
    }
    await waitFinished(b, run);
    assert.ok(reply(b, run).includes("alpha-beta-gamma"), "the model saw the whole result");
  });
});

Deno.test("an error outcome with an error_code is recorded", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const res = await b.call(
      "client.tool.result",
      resultParams(run, callId, "bad id", { outcome: "error", error_code: "invalid_arguments" }),
    );
    assert.deepEqual(res, { recorded: true, complete: true });
    await waitFinished(b, run);
  });
});

Deno.test("malformed or out-of-order result parts are invalid_params", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const bad = (extra: Record<string, unknown>) => resultParams(run, callId, "t", extra);
    const cases: Record<string, unknown>[] = [
      bad({ part: 1, last_part: false }), // part 0 missing
      bad({ part: -1 }),
      bad({ outcome: "done" }),
      bad({ error_code: "tool_failed" }), // error_code only with outcome error
      bad({ outcome: "error", error_code: "Bad-Code" }),
      bad({ extra: true }),
      bad({ text: 5 }),
      bad({ last_part: "yes" }),
      resultParams(run, callId, "x".repeat(CLIENT_TOOLS_LIMITS.result_part_bytes + 1)),
      {
        session_id: run.sessionId,
        run_id: run.runId,
        call_id: callId,
        part: 0,
        outcome: "success",
        text: "",
      },
    ];
    for (const params of cases) {
      const res = await b.request("client.tool.result", params);
      assert.deepEqual(res.error, { code: "invalid_params" }, JSON.stringify(params).slice(0, 160));
    }
    assert.deepEqual(await b.call("client.tool.result", bad({ part: 0, last_part: false })), {
      recorded: true,
      complete: false,
    });
    const skipped = await b.request("client.tool.result", bad({ part: 2, last_part: true }));
    assert.deepEqual(skipped.error, { code: "invalid_params" }, "part 2 after part 0");
    const repeated = await b.request("client.tool.result", bad({ part: 0, last_part: true }));
    assert.deepEqual(repeated.error, { code: "invalid_params" }, "part 0 again");
    const changed = await b.request(
      "client.tool.result",
      bad({ part: 1, last_part: true, outcome: "error", error_code: "tool_failed" }),
    );
    assert.deepEqual(changed.error, { code: "invalid_params" }, "changed outcome");
    assert.deepEqual(await b.call("client.tool.result", bad({ part: 1, last_part: true })), {
      recorded: true,
      complete: true,
    });
    await waitFinished(b, run);
  });
});

Deno.test("a part of exactly result_part_bytes is accepted", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const text = "\u00e9".repeat(CLIENT_TOOLS_LIMITS.result_part_bytes / 2);
    assert.deepEqual(await b.call("client.tool.result", resultParams(run, callId, text)), {
      recorded: true,
      complete: true,
    });
    await waitFinished(b, run);
  });
});

Deno.test("results for unknown or finalized calls are stale_call", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool(), readTool("other")]);
    // Two calls keep the run active after the first is finalized (else: stale_run).
    const run = await startTurn(b, toolPrompt([["lookup", {}], ["other", {}]]));
    const first = await b.waitEvent(
      "client.tool.call",
      (d) => ofRun(run)(d) && d.name === "lookup",
    );
    const second = await b.waitEvent(
      "client.tool.call",
      (d) => ofRun(run)(d) && d.name === "other",
    );
    const unknown = await b.request("client.tool.result", resultParams(run, "no-such-call", "x"));
    assert.deepEqual(unknown.error, { code: "stale_call" });
    await b.call("client.tool.result", resultParams(run, first.data.call_id, "ok"));
    const again = await b.request(
      "client.tool.result",
      resultParams(run, first.data.call_id, "ok"),
    );
    assert.deepEqual(again.error, { code: "stale_call" }, "answered exactly once");
    await b.call("client.tool.result", resultParams(run, second.data.call_id, "ok"));
    await waitFinished(b, run);
  });
});

Deno.test("a result for another session is stale_session", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const res = await b.request(
      "client.tool.result",
      { ...resultParams(run, callId, "x"), session_id: "another-session" },
    );
    assert.deepEqual(res.error, { code: "stale_session" });
    await b.call("client.tool.result", resultParams(run, callId, "ok"));
    await waitFinished(b, run);
  });
});

Deno.test("a result after the run finished is stale_run", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    await b.call("client.tool.result", resultParams(run, callId, "ok"));
    await waitFinished(b, run);
    const late = await b.request("client.tool.result", resultParams(run, callId, "ok"));
    assert.deepEqual(late.error, { code: "stale_run" });
    const other = await b.request(
      "client.tool.result",
      { ...resultParams(run, callId, "ok"), run_id: "00000000-0000-4000-8000-000000000000" },
    );
    assert.deepEqual(other.error, { code: "stale_run" }, "unknown run");
  });
});

function sendParts(b: Backend, run: Run, callId: unknown, texts: readonly string[]) {
  return b.pipeline(texts.map((text, part) => ({
    id: b.freshId("part"),
    method: "client.tool.result",
    params: resultParams(run, callId, text, { part, last_part: false }),
  })));
}

Deno.test("results past result_bytes are result_limit, then stale_call", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool(), readTool("other")]);
    // A second outstanding call keeps the run active (else later parts could be stale_run).
    const run = await startTurn(b, toolPrompt([["lookup", {}], ["other", {}]]));
    const call = await b.waitEvent("client.tool.call", (d) => ofRun(run)(d) && d.name === "lookup");
    const other = await b.waitEvent("client.tool.call", (d) => ofRun(run)(d) && d.name === "other");
    const callId = call.data.call_id;
    const full = CLIENT_TOOLS_LIMITS.result_bytes / CLIENT_TOOLS_LIMITS.result_part_bytes;
    const chunk = "x".repeat(CLIENT_TOOLS_LIMITS.result_part_bytes);
    const ok = await sendParts(b, run, callId, Array(full).fill(chunk));
    assert.ok(ok.every((r) => r.result?.recorded === true), "up to result_bytes are recorded");
    const over = await b.request(
      "client.tool.result",
      resultParams(run, callId, "y", { part: full, last_part: false }),
    );
    assert.deepEqual(over.error, { code: "result_limit" });
    const later = await b.request(
      "client.tool.result",
      resultParams(run, callId, "z", { part: full + 1 }),
    );
    assert.deepEqual(later.error, { code: "stale_call" });
    const failed = await b.waitEvent(
      "activity",
      (d) => ofRun(run)(d) && d.name === "lookup" && d.state !== "started",
      { from: call.index },
    );
    assert.equal(failed.data.state, "failed");
    await b.call("client.tool.result", resultParams(run, other.data.call_id, "ok"));
    await waitFinished(b, run);
  });
});

Deno.test("results past result_parts are result_limit", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const ok = await sendParts(b, run, callId, Array(CLIENT_TOOLS_LIMITS.result_parts).fill("p"));
    assert.ok(ok.every((r) => r.result?.recorded === true), "up to result_parts are recorded");
    const over = await b.request(
      "client.tool.result",
      resultParams(run, callId, "p", { part: CLIENT_TOOLS_LIMITS.result_parts, last_part: true }),
    );
    assert.deepEqual(over.error, { code: "result_limit" });
    await waitFinished(b, run);
  });
});

Deno.test("never more than concurrent_calls calls of one run are outstanding", async () => {
  const names = ["t1", "t2", "t3", "t4", "t5", "t6"];
  await withBackend({}, async (b) => {
    await initialize(b, names.map((n) => readTool(n)));
    const run = await startTurn(b, toolPrompt(names.map((n) => [n, { n }] as const)));
    const answered = new Set<unknown>();
    let maxOutstanding = 0;
    while (answered.size < names.length) {
      await b.waitEvent(
        "client.tool.call",
        (d) => ofRun(run)(d) && !answered.has(d.call_id),
        { from: run.from },
      );
      await b.settle(300); // let the backend emit every call it is going to emit now
      const calls = runEvents(b, run).filter((e) => e.event === "client.tool.call");
      const open = calls.filter((c) => !answered.has(c.data.call_id));
      maxOutstanding = Math.max(maxOutstanding, open.length);
      assert.ok(open.length <= CLIENT_TOOLS_LIMITS.concurrent_calls, `${open.length} outstanding`);
      const next = open[0]!;
      answered.add(next.data.call_id);
      await b.call(
        "client.tool.result",
        resultParams(run, next.data.call_id, `ok ${next.data.name}`),
      );
    }
    await waitFinished(b, run);
    const calls = runEvents(b, run).filter((e) => e.event === "client.tool.call");
    assert.deepEqual(
      calls.map((c) => c.data.name).sort(),
      names,
      "every mentioned tool called once",
    );
    // The model asked for six calls at once: the backend keeps exactly concurrent_calls of
    // them outstanding (the reference backend emits them together; another backend may call
    // them one by one, which the bound above allows).
    if (REFERENCE) assert.equal(maxOutstanding, CLIENT_TOOLS_LIMITS.concurrent_calls);
    else assert.ok(maxOutstanding >= 1);
  });
});

async function cancelWith(b: Backend, run: Run, callId: unknown): Promise<EventFrame> {
  assert.deepEqual(await b.call("turn.cancel", { session_id: run.sessionId, run_id: run.runId }), {
    cancellation_requested: true,
  });
  return await b.waitEvent("client.tool.cancel", (d) => ofRun(run)(d) && d.call_id === callId);
}

Deno.test("turn.cancel cancels an outstanding call (run_cancelled), then finishes cancelled", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    const cancel = await cancelWith(b, run, callId);
    assert.equal(cancel.data.reason, "run_cancelled");
    const ack = await b.call(
      "client.tool.result",
      resultParams(run, callId, "stopped", { outcome: "cancelled" }),
    );
    assert.deepEqual(ack, { recorded: true, complete: true });
    const fin = await waitFinished(b, run);
    assert.equal(fin.data.outcome, "cancelled");
    assert.ok(fin.index > cancel.index, "run.finished after the cancel");
  });
});

Deno.test("an unanswered cancelled call is finalized after the grace and run.finished arrives", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, callId } = await oneCall(b);
    // The grace starts when the backend has the turn.cancel, so after this instant.
    const sent = performance.now();
    await cancelWith(b, run, callId);
    const fin = await waitFinished(b, run, CLIENT_TOOLS_LIMITS.cancel_grace_ms + 6_000);
    const elapsed = performance.now() - sent;
    assert.equal(fin.data.outcome, "cancelled");
    assert.ok(
      elapsed >= CLIENT_TOOLS_LIMITS.cancel_grace_ms,
      `finalized after ${
        Math.round(elapsed)
      } ms, before the ${CLIENT_TOOLS_LIMITS.cancel_grace_ms} ms grace`,
    );
    const late = await b.request(
      "client.tool.result",
      resultParams(run, callId, "late", { outcome: "cancelled" }),
    );
    assert.deepEqual(late.error, { code: "stale_run" });
  });
});

Deno.test("a call past its deadline is cancelled with reason deadline", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [{ ...readTool(), timeout_ms: 1_000 }]);
    const { run, call, callId } = await oneCall(b);
    assert.ok((call.data.deadline_ms as number) <= 1_000);
    const cancel = await b.waitEvent("client.tool.cancel", (d) => d.call_id === callId, {
      timeoutMs: 6_000,
    });
    assert.equal(cancel.data.reason, "deadline");
    await b.request("client.tool.result", resultParams(run, callId, "", { outcome: "cancelled" }));
    const fin = await waitFinished(b, run);
    assert.ok(["completed", "failed"].includes(String(fin.data.outcome)));
  });
});

Deno.test("shutdown with an outstanding call cancels it (reason shutdown) and exits 0", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { callId } = await oneCall(b);
    assert.deepEqual(await b.call("shutdown"), { state: "stopping" });
    const cancel = await b.waitEvent("client.tool.cancel", (d) => d.call_id === callId);
    assert.equal(cancel.data.reason, "shutdown");
    await b.expectExit(0, 12_000);
  });
});

Deno.test({
  name: "a run past calls_per_run fails with execution_failed (reference scenario)",
  ignore: !REFERENCE,
  fn: async () => {
    const limit = CLIENT_TOOLS_LIMITS.calls_per_run;
    const calls = Array.from({ length: limit }, (_, i) => ({ tool: "lookup", arguments: { i } }));
    await withScenario(
      { turns: [{ steps: [{ call: calls }, { call: { tool: "lookup" } }, { say: "never" }] }] },
      async (b) => {
        await initialize(b, [readTool()]);
        const run = await startTurn(b, "many calls");
        const answered = new Set<unknown>();
        while (answered.size < limit) {
          const call = await b.waitEvent(
            "client.tool.call",
            (d) => ofRun(run)(d) && !answered.has(d.call_id),
            { from: run.from },
          );
          answered.add(call.data.call_id);
          await b.call("client.tool.result", resultParams(run, call.data.call_id, "ok"));
        }
        const fin = await waitFinished(b, run);
        assert.equal(fin.data.outcome, "failed");
        assert.equal(fin.data.error_code, "execution_failed");
        const made = runEvents(b, run).filter((e) => e.event === "client.tool.call").length;
        assert.equal(made, limit, "no call beyond calls_per_run");
      },
    );
  },
});
