import assert from "node:assert/strict";
import { EventQueue } from "../../src/client/event_queue.ts";
import type { AgentEvent } from "../../src/client/events.ts";

function delta(part: number): AgentEvent {
  return {
    event: "message.delta",
    seq: part + 1,
    data: { session_id: "s", run_id: "r", message_id: "m", part, text: "x" },
  };
}

function diagnostic(seq: number): AgentEvent {
  return {
    event: "diagnostic",
    seq,
    data: { session_id: "s", run_id: "r", code: "c", summary: "" },
  };
}

Deno.test("EventQueue drops best-effort deltas when full and counts them", () => {
  const q = new EventQueue(1);
  assert.equal(q.push(delta(0)), "queued");
  assert.equal(q.push(delta(1)), "dropped");
  assert.equal(q.dropped, 1);
});

Deno.test("EventQueue makes room for a critical event by evicting the oldest delta", () => {
  const q = new EventQueue(1);
  q.push(delta(0));
  assert.equal(q.push(diagnostic(2)), "queued");
  assert.equal(q.dropped, 1);
});

Deno.test("EventQueue reports overflow for a critical event when no delta can make room", () => {
  const q = new EventQueue(1);
  q.push(diagnostic(1));
  assert.equal(q.push(diagnostic(2)), "overflow");
});

Deno.test("EventQueue delivers queued events, then the end error", async () => {
  const q = new EventQueue(4);
  q.push(diagnostic(1));
  q.end(new Error("boom"));
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const e of q) seen.push(e.seq);
  }, /boom/);
  assert.deepEqual(seen, [1]);
});

Deno.test("EventQueue wakes a waiting consumer", async () => {
  const q = new EventQueue(4);
  const it = q[Symbol.asyncIterator]();
  const next = it.next();
  q.push(diagnostic(7));
  assert.equal((await next).value?.seq, 7);
  q.end();
  assert.equal((await it.next()).done, true);
});
