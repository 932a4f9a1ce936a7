import assert from "node:assert/strict";
import { ProtocolViolation } from "../../src/client/errors.ts";
import { Reconciler } from "../../src/client/reconcile.ts";

const base = { session_id: "s", run_id: "r", partial: false };

Deno.test("Reconciler emits the text only when the last part arrives", () => {
  const r = new Reconciler();
  assert.equal(r.push({ ...base, message_id: "m", part: 0, text: "a", last_part: false }), null);
  assert.deepEqual(r.incomplete(), ["m"]);
  const done = r.push({ ...base, message_id: "m", part: 1, text: "b", last_part: true });
  assert.deepEqual(done, { messageId: "m", text: "ab", partial: false });
  assert.deepEqual(r.incomplete(), []);
});

Deno.test("Reconciler keeps messages apart and reports partial content", () => {
  const r = new Reconciler();
  r.push({ ...base, message_id: "m1", part: 0, text: "x", last_part: false });
  const m2 = r.push({
    ...base,
    message_id: "m2",
    part: 0,
    text: "y",
    last_part: true,
    partial: true,
  });
  assert.deepEqual(m2, { messageId: "m2", text: "y", partial: true });
});

Deno.test("Reconciler rejects a part out of order", () => {
  const r = new Reconciler();
  assert.throws(
    () => r.push({ ...base, message_id: "m", part: 1, text: "b", last_part: true }),
    ProtocolViolation,
  );
});

Deno.test("Reconciler rejects a part after the last part", () => {
  const r = new Reconciler();
  r.push({ ...base, message_id: "m", part: 0, text: "a", last_part: true });
  assert.throws(
    () => r.push({ ...base, message_id: "m", part: 1, text: "b", last_part: true }),
    ProtocolViolation,
  );
});
