/**
 * Turns: admission rules, one active run, cancellation, and the run event stream
 * (deltas, reconciliation, exactly one terminal event, nothing after it).
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { type Backend, type EventFrame, withBackend, Workspace } from "./_harness.ts";
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
} from "./_fixtures.ts";
import { byteLength } from "./_frames.ts";
import { EVENT_CHUNK_BYTES } from "../../src/protocol/limits.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Start a turn that stays active until its `lookup` call is answered. */
async function heldTurn(b: Backend): Promise<{ run: Run; call: EventFrame }> {
  const run = await startTurn(b, toolPrompt([["lookup", { q: "hold" }]]));
  const call = await b.waitEvent("client.tool.call", ofRun(run), { from: run.from });
  return { run, call };
}

/** The reconciled text of each message of a run, checking part order and last_part. */
function reconciled(events: readonly EventFrame[]): Map<string, string> {
  const parts = new Map<string, EventFrame[]>();
  for (const e of events) {
    if (e.event !== "message.reconcile") continue;
    const id = String(e.data.message_id);
    parts.set(id, [...(parts.get(id) ?? []), e]);
  }
  const texts = new Map<string, string>();
  for (const [id, list] of parts) {
    list.forEach((e, i) => {
      assert.equal(e.data.part, i, `reconcile parts of ${id} start at 0 and increase by 1`);
      assert.equal(e.data.last_part, i === list.length - 1, `last_part only on the final part`);
    });
    texts.set(id, list.map((e) => String(e.data.text)).join(""));
  }
  return texts;
}

/** Check every message's deltas: parts increase; without gaps they equal the reconciliation. */
function checkDeltas(events: readonly EventFrame[], texts: Map<string, string>): void {
  const deltas = new Map<string, EventFrame[]>();
  for (const e of events) {
    if (e.event !== "message.delta") continue;
    const id = String(e.data.message_id);
    deltas.set(id, [...(deltas.get(id) ?? []), e]);
    assert.ok(byteLength(String(e.data.text)) <= EVENT_CHUNK_BYTES, "delta within 4,000 bytes");
  }
  for (const [id, list] of deltas) {
    const nums = list.map((e) => Number(e.data.part));
    for (let i = 1; i < nums.length; i++) {
      assert.ok(nums[i]! > nums[i - 1]!, "delta parts increase");
    }
    const complete = nums.every((n, i) => n === i);
    if (complete && texts.has(id)) {
      assert.equal(
        list.map((e) => String(e.data.text)).join(""),
        texts.get(id),
        "deltas = reconciliation",
      );
    }
  }
}

Deno.test("turn.start returns a UUID run ID and accepted:true; the run completes", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const sid = String((await b.call("session.create")).session_id);
    const res = await b.call("turn.start", { session_id: sid, prompt: "Hello there." });
    assert.deepEqual(Object.keys(res).sort(), ["accepted", "run_id"]);
    assert.equal(res.accepted, true);
    assert.match(String(res.run_id), UUID);
    const run = { sessionId: sid, runId: String(res.run_id), from: 0 };
    const fin = await waitFinished(b, run);
    assert.deepEqual(fin.data.outcome, "completed");
    assert.equal(fin.data.error_code, null);
    const events = runEvents(b, run);
    assert.equal(
      events.filter((e) => e.event === "run.finished").length,
      1,
      "exactly one terminal",
    );
    assert.equal(events.at(-1)?.event, "run.finished", "terminal is last");
    const texts = reconciled(events);
    assert.ok(texts.size > 0, "the reply is reconciled");
    checkDeltas(events, texts);
  });
});

Deno.test("turn.start response precedes the run's events", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const run = await startTurn(b, "Hello there.");
    await waitFinished(b, run);
    const first = b.frames.findIndex((f) => f.type === "event" && ofRun(run)(f.data));
    assert.ok(first > run.from, "first event after the admission response");
  });
});

const BAD_PROMPTS: ReadonlyArray<readonly [string, unknown]> = [
  ["an empty prompt", ""],
  ["a whitespace-only prompt", " \t\n\r  "],
  ["a 16,385-byte prompt", "a".repeat(16_385)],
  ["a 16,386-byte multibyte prompt", "\u00e9".repeat(8_193)],
  ["a non-string prompt", 42],
];
Deno.test("turn.start rejects bad prompts with invalid_params and no acknowledgement", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const sid = String((await b.call("session.create")).session_id);
    for (const [name, prompt] of BAD_PROMPTS) {
      const res = await b.request("turn.start", { session_id: sid, prompt });
      assert.deepEqual(res.error, { code: "invalid_params" }, name);
    }
    for (const params of [{ session_id: sid }, { session_id: sid, prompt: "hi", extra: 1 }]) {
      assert.deepEqual((await b.request("turn.start", params)).error, { code: "invalid_params" });
    }
    await b.settle(100);
    assert.equal(b.frames.filter((f) => f.type === "event").length, 0, "no events at all");
    assert.equal((await b.call("status")).state, "idle");
  });
});

Deno.test("turn.start accepts a prompt of exactly 16,384 bytes", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const run = await startTurn(b, "\u00e9".repeat(8_192));
    await waitFinished(b, run);
  });
});

Deno.test("turn.start without an attached session is session_missing", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const res = await b.request("turn.start", { session_id: "not-attached-1", prompt: "hi" });
    assert.deepEqual(res.error, { code: "session_missing" });
  });
});

Deno.test("turn.start for a session other than the attached one is stale_session", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    await b.call("session.create");
    const res = await b.request("turn.start", { session_id: "some-other-session", prompt: "hi" });
    assert.deepEqual(res.error, { code: "stale_session" });
  });
});

Deno.test("a second turn during an active run is busy; status shows the running run", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, call } = await heldTurn(b);
    const res = await b.request("turn.start", { session_id: run.sessionId, prompt: "again" });
    assert.deepEqual(res.error, { code: "busy" });
    const status = await b.call("status");
    assert.equal(status.state, "running");
    assert.equal(status.run_id, run.runId);
    assert.equal(status.session_id, run.sessionId);
    await b.call("client.tool.result", resultParams(run, call.data.call_id, "done"));
    await waitFinished(b, run);
    const after = await b.call("status");
    assert.equal(after.state, "idle");
    assert.equal(after.run_id, null);
  });
});

Deno.test("turn.cancel is idempotent for the active run and the run finishes cancelled once", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, call } = await heldTurn(b);
    const params = { session_id: run.sessionId, run_id: run.runId };
    assert.deepEqual(await b.call("turn.cancel", params), { cancellation_requested: true });
    assert.deepEqual(await b.call("turn.cancel", params), { cancellation_requested: true });
    await b.waitEvent("client.tool.cancel", (d) => d.call_id === call.data.call_id);
    await b.request(
      "client.tool.result",
      resultParams(run, call.data.call_id, "", { outcome: "cancelled" }),
    );
    const fin = await waitFinished(b, run);
    assert.equal(fin.data.outcome, "cancelled");
    await b.call("status");
    await b.settle(200);
    const events = runEvents(b, run);
    assert.equal(events.filter((e) => e.event === "run.finished").length, 1);
    assert.equal(events.at(-1)?.event, "run.finished");
  });
});

Deno.test("turn.cancel after the run finished, or for an unknown run, is stale_run", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const run = await startTurn(b, "Hello there.");
    await waitFinished(b, run);
    const late = await b.request("turn.cancel", { session_id: run.sessionId, run_id: run.runId });
    assert.deepEqual(late.error, { code: "stale_run" });
    const unknown = await b.request("turn.cancel", {
      session_id: run.sessionId,
      run_id: "00000000-0000-4000-8000-000000000000",
    });
    assert.deepEqual(unknown.error, { code: "stale_run" });
    const bad = await b.request("turn.cancel", { session_id: run.sessionId });
    assert.deepEqual(bad.error, { code: "invalid_params" });
  });
});

Deno.test("a long reply arrives in chunks of at most 4,000 bytes that reconcile to the text", async () => {
  const big = "\u00e9t\u00e9 \u{1F30D} ".repeat(1_500) + "END-OF-RESULT";
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run, call } = await heldTurn(b);
    const points = Array.from(big); // split only at code-point boundaries
    for (let part = 0, at = 0; at < points.length; part++) {
      const text = points.slice(at, at + 2_000).join("");
      at += 2_000;
      await b.call(
        "client.tool.result",
        resultParams(run, call.data.call_id, text, { part, last_part: at >= points.length }),
      );
    }
    const fin = await waitFinished(b, run);
    assert.equal(fin.data.outcome, "completed");
    const events = runEvents(b, run);
    const texts = reconciled(events);
    checkDeltas(events, texts);
    assert.ok([...texts.values()].some((t) => t.includes(big)), "the reply includes the result");
    assert.ok(events.filter((e) => e.event === "message.reconcile").length > 1, "several parts");
  });
});

Deno.test({
  name: "a scripted long reply reconciles exactly (reference scenario)",
  ignore: !REFERENCE,
  fn: async () => {
    const ws = await Workspace.create();
    try {
      const text = "ab\u00e7\u{1F600}\n";
      const scenario = await ws.writeScenario({
        turns: [{ match: "long", steps: [{ say: text, repeat: 5_000 }] }],
      });
      await withBackend({ workspace: ws, env: { MAGI_SCENARIO: scenario } }, async (b) => {
        await initialize(b);
        const run = await startTurn(b, "give me the long one");
        const fin = await waitFinished(b, run);
        assert.equal(fin.data.outcome, "completed");
        const events = runEvents(b, run);
        const texts = reconciled(events);
        checkDeltas(events, texts);
        assert.deepEqual([...texts.values()], [text.repeat(5_000)]);
      });
    } finally {
      await ws.dispose();
    }
  },
});

Deno.test("no event of a run follows its run.finished", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const run = await startTurn(b, "Hello there.");
    const fin = await waitFinished(b, run);
    await b.call("status");
    await b.settle(300);
    const later = b.frames.filter((f) =>
      f.index > fin.index && f.type === "event" && ofRun(run)(f.data)
    );
    assert.deepEqual(later, []);
  });
});

Deno.test("a second turn in the same session works after the first finished", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const first = await startTurn(b, "Hello there.");
    await waitFinished(b, first);
    const second = await startTurn(b, "And again.", first.sessionId);
    assert.notEqual(second.runId, first.runId);
    const persisted = await b.waitEvent("input.persisted", ofRun(second), { from: second.from });
    assert.equal(persisted.data.durable, true);
    assert.equal((await waitFinished(b, second)).data.outcome, "completed");
  });
});

Deno.test("shutdown during an active turn answers stopping and the child exits 0", async () => {
  await withBackend({}, async (b) => {
    await initialize(b, [readTool()]);
    const { run } = await heldTurn(b);
    assert.deepEqual(await b.call("shutdown"), { state: "stopping" });
    await b.expectExit(0, 12_000);
    const fin = runEvents(b, run).find((e) => e.event === "run.finished");
    if (fin !== undefined) assert.equal(fin.data.outcome, "cancelled");
  });
});

Deno.test({
  name: "a failing run reports failed with its error code, once, last (reference scenario)",
  ignore: !REFERENCE,
  fn: async () => {
    await withScenario(
      {
        turns: [{
          steps: [
            { say: "partial answer" },
            { diagnostic: { code: "test_warning", summary: "Something to note" } },
            { fail: "execution_failed" },
          ],
        }],
      },
      async (b) => {
        await initialize(b);
        const run = await startTurn(b, "fail please");
        const diag = await b.waitEvent("diagnostic", ofRun(run), { from: run.from });
        assert.equal(diag.data.code, "test_warning");
        assert.equal(diag.data.summary, "Something to note");
        const fin = await waitFinished(b, run);
        assert.equal(fin.data.outcome, "failed");
        assert.equal(fin.data.error_code, "execution_failed");
        const events = runEvents(b, run);
        assert.equal(events.at(-1)?.event, "run.finished");
        assert.ok(
          [...reconciled(events).values()].join("").includes("partial answer"),
          "partial kept",
        );
      },
    );
  },
});

Deno.test({
  name: "turn.cancel during a scripted sleep finishes the run cancelled (reference scenario)",
  ignore: !REFERENCE,
  fn: async () => {
    await withScenario({ turns: [{ steps: [{ sleep: 60_000 }, { say: "late" }] }] }, async (b) => {
      await initialize(b);
      const run = await startTurn(b, "sleep");
      await b.waitEvent("input.persisted", ofRun(run), { from: run.from });
      assert.equal((await b.call("status")).state, "running");
      await b.call("turn.cancel", { session_id: run.sessionId, run_id: run.runId });
      const fin = await waitFinished(b, run);
      assert.equal(fin.data.outcome, "cancelled");
      assert.equal((await b.call("status")).state, "idle");
    });
  },
});

for (
  const [name, steps] of [
    ["over 8 MiB of assistant text", [{ say: "x", repeat: 8 * 1024 * 1024 + 1 }]],
    ["over 512 assistant segments", Array.from({ length: 513 }, () => ({ say: "s" }))],
  ] as const
) {
  Deno.test({
    name: `a run with ${name} fails with content_limit (reference scenario)`,
    ignore: !REFERENCE,
    fn: async () => {
      await withScenario({ turns: [{ steps }] }, async (b) => {
        await initialize(b);
        const run = await startTurn(b, "too much");
        const fin = await waitFinished(b, run, 20_000);
        assert.equal(fin.data.outcome, "failed");
        assert.equal(fin.data.error_code, "content_limit");
        const segments = new Set(
          runEvents(b, run).filter((e) => e.event === "message.reconcile").map((e) =>
            e.data.message_id
          ),
        );
        assert.ok(segments.size <= 512, "never more than 512 segments");
      });
    },
  });
}
