import assert from "node:assert/strict";
import { Child } from "./_child.ts";

const LOOKUP = {
  name: "lookup",
  description: "Look something up.",
  input_schema: { type: "object" },
  effect: "read",
};

Deno.test("serve --stdio runs a whole turn with a client tool call and its result", async () => {
  const child = await Child.spawn();
  try {
    const init = await child.request("initialize", {
      required_capabilities: ["client.tools", "session.create", "turn.start"],
      client_tools: [LOOKUP],
    });
    assert.ok(init.result !== undefined);
    const created = await child.request("session.create", {});
    const sessionId = created.result?.session_id as string;
    const started = await child.request("turn.start", {
      session_id: sessionId,
      prompt: 'please lookup {"q":"x"}',
    });
    const runId = started.result?.run_id as string;
    const persisted = await child.event("input.persisted");
    assert.equal(persisted.data?.run_id, runId);
    const call = await child.event("client.tool.call");
    assert.deepEqual(call.data?.arguments, { q: "x" });
    assert.equal(call.data?.deadline_ms, 120_000);
    assert.ok(persisted.seq < call.seq, "input.persisted precedes provider work");
    const answer = await child.request("client.tool.result", {
      session_id: sessionId,
      run_id: runId,
      call_id: call.data?.call_id,
      part: 0,
      last_part: true,
      outcome: "success",
      text: "found it",
    });
    assert.deepEqual(answer.result, { recorded: true, complete: true });
    const finished = await child.event("run.finished");
    assert.equal(finished.data?.outcome, "completed");
    assert.equal(finished.data?.persistence, "durable");
    const reply = await child.event("message.reconcile", (d) => d.last_part === true);
    assert.equal(reply.data?.text, "lookup → found it");
    const seqs = child.frames.map((f) => f.seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), "seq increases by one from 1");
    const lines = (await Deno.readTextFile(`${child.mcHome}/sessions/${sessionId}.jsonl`))
      .trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => l.type), ["user", "activity", "assistant", "run_finished"]);
    assert.ok(lines.every((l) => typeof l.timestamp === "string" && l.cwd.startsWith("/")));
  } finally {
    assert.equal(await child.close(), 0);
  }
});

Deno.test("serve --stdio cancels an outstanding call on turn.cancel and finishes cancelled", async () => {
  const child = await Child.spawn();
  try {
    await child.request("initialize", {
      required_capabilities: ["client.tools"],
      client_tools: [LOOKUP],
    });
    const sessionId = (await child.request("session.create", {})).result?.session_id;
    const runId = (await child.request("turn.start", { session_id: sessionId, prompt: "lookup" }))
      .result?.run_id;
    const call = await child.event("client.tool.call");
    const cancel = await child.request("turn.cancel", { session_id: sessionId, run_id: runId });
    assert.deepEqual(cancel.result, { cancellation_requested: true });
    const cancelEvent = await child.event("client.tool.cancel");
    assert.equal(cancelEvent.data?.reason, "run_cancelled");
    await child.request("client.tool.result", {
      session_id: sessionId,
      run_id: runId,
      call_id: call.data?.call_id,
      part: 0,
      last_part: true,
      outcome: "cancelled",
      text: "",
    });
    const finished = await child.event("run.finished");
    assert.equal(finished.data?.outcome, "cancelled");
    const again = await child.request("turn.cancel", { session_id: sessionId, run_id: runId });
    assert.deepEqual(again.error, { code: "stale_run" });
  } finally {
    assert.equal(await child.close(), 0);
  }
});

Deno.test("a second child opening a session held by the first gets session_busy", async () => {
  const first = await Child.spawn();
  let second: Child | null = null;
  try {
    await first.request("initialize", { required_capabilities: [] });
    const sessionId = (await first.request("session.create", {})).result?.session_id;
    await first.request("turn.start", { session_id: sessionId, prompt: "hello" });
    await first.event("run.finished");
    second = await Child.spawn({ MC_HOME: first.mcHome }, { cwd: first.cwd });
    await second.request("initialize", { required_capabilities: [] });
    const opened = await second.request("session.open", { session_id: sessionId });
    assert.deepEqual(opened.error, { code: "session_busy" });
  } finally {
    if (second !== null) await second.close();
    assert.equal(await first.close(), 0);
  }
});

Deno.test("another cwd opening a stored session gets cwd_mismatch", async () => {
  const first = await Child.spawn();
  let second: Child | null = null;
  try {
    await first.request("initialize", { required_capabilities: [] });
    const sessionId = (await first.request("session.create", {})).result?.session_id;
    await first.request("turn.start", { session_id: sessionId, prompt: "hello" });
    await first.event("run.finished");
    second = await Child.spawn({ MC_HOME: first.mcHome });
    await second.request("initialize", { required_capabilities: [] });
    const opened = await second.request("session.open", { session_id: sessionId });
    assert.deepEqual(opened.error, { code: "cwd_mismatch" });
  } finally {
    if (second !== null) await second.close();
    assert.equal(await first.close(), 0);
  }
});

Deno.test("a scenario past 8 MiB of assistant text fails the run with content_limit", async () => {
  const root = await Deno.makeTempDir();
  const scenario = `${root}/big.jsonc`;
  await Deno.writeTextFile(
    scenario,
    JSON.stringify({
      turns: [{ steps: [{ say: "x", repeat: 5_000_000 }, { say: "y", repeat: 5_000_000 }] }],
    }),
  );
  const child = await Child.spawn({ MAGI_SCENARIO: scenario });
  let code: number;
  try {
    await child.request("initialize", { required_capabilities: [] });
    const sessionId = (await child.request("session.create", {})).result?.session_id;
    await child.request("turn.start", { session_id: sessionId, prompt: "go" });
    // 8 MiB of deltas: about 3 s on a quiet machine, over 10 s on a loaded one.
    const finished = await child.event("run.finished", undefined, 60_000);
    assert.equal(finished.data?.outcome, "failed");
    assert.equal(finished.data?.error_code, "content_limit");
    const last = child.frames.filter((f) => f.event === "message.reconcile").at(-1);
    assert.equal(last?.data?.last_part, true, "the admitted segment reconciled completely");
  } finally {
    // Closed on every path; its exit code is checked only after the assertions above passed,
    // so a failure above is not masked by the exit code of a backend stopped mid-run.
    code = await child.close();
    await Deno.remove(root, { recursive: true });
  }
  assert.equal(code, 0, await child.stderr());
});

Deno.test("shutdown right after initialize cancels startup with startup_cancelled", async () => {
  const child = await Child.spawn();
  try {
    await child.sendLines([
      { id: "i1", method: "initialize", params: { required_capabilities: [] } },
      { id: "s1", method: "shutdown", params: {} },
    ]);
    const init = await child.waitFor((f) => f.id === "i1");
    const stop = await child.waitFor((f) => f.id === "s1");
    assert.deepEqual(init.error, { code: "startup_cancelled" });
    assert.deepEqual(stop.result, { state: "stopping" });
  } finally {
    assert.equal(await child.close(), 0);
  }
});

Deno.test("shutdown with a pending write-tool approval finishes the run cancelled", async () => {
  const child = await Child.spawn();
  try {
    await child.request("initialize", {
      required_capabilities: ["client.tools"],
      client_tools: [{ ...LOOKUP, name: "save", effect: "write" }],
    });
    const sessionId = (await child.request("session.create", {})).result?.session_id;
    await child.request("turn.start", { session_id: sessionId, prompt: "save" });
    await child.event("approval.requested");
    assert.deepEqual((await child.request("shutdown", {})).result, { state: "stopping" });
    const finished = await child.event("run.finished");
    assert.equal(finished.data?.outcome, "cancelled");
    assert.equal(child.frames.some((f) => f.event === "client.tool.call"), false);
  } finally {
    assert.equal(await child.close(), 0);
  }
});
