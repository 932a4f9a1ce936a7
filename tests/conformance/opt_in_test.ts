/**
 * The four opt-in operations: `unsupported_capability` unless negotiated, and
 * `operation.cancel` over a pending session-worker operation.
 */

import assert from "node:assert/strict";
import { REFERENCE } from "./_command.ts";
import { withBackend } from "./_harness.ts";
import { initialize } from "./_fixtures.ts";
import { initializeAll } from "./_stored.ts";

const OPT_IN: [string, Record<string, unknown>][] = [
  ["session.discover", { cursor: null, limit: 10 }],
  ["model.catalog.status", {}],
  ["model.refresh", { provider: "scripted" }],
  ["operation.cancel", { operation_id: "x1" }],
];

Deno.test("opt-in operations are unsupported_capability unless named at initialization", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    for (const [method, params] of OPT_IN) {
      const res = await b.request(method, params);
      assert.deepEqual(res.error, { code: "unsupported_capability" }, method);
    }
  });
});

Deno.test("no operation of a fully negotiated child answers unsupported_method", async () => {
  await withBackend({}, async (b) => {
    await initializeAll(b);
    const calls: [string, Record<string, unknown>][] = [
      ...OPT_IN,
      ["session.list", {}],
      ["model.catalog", {}],
      ["history.page", { session_id: "s", revision: "r", cursor: null }],
      [
        "selection.set",
        {
          session_id: "s",
          selection_revision: "a",
          catalog_revision: "b",
          provider: "p",
          model: "m",
        },
      ],
    ];
    for (const [method, params] of calls) {
      const res = await b.request(method, params);
      assert.notEqual(res.error?.code, "unsupported_method", method);
      assert.notEqual(res.error?.code, "unsupported_capability", method);
    }
  });
});

// The start delay makes the pending window deterministic here; cancelling during real work
// (a session.open reading a ~50 MB history) is tested in open_cancel_test.ts.
Deno.test("operation.cancel cancels a pending operation once; others are stale_operation", {
  ignore: !REFERENCE,
}, async () => {
  await withBackend({ env: { MAGI_OPERATION_DELAY_MS: "5000" } }, async (b) => {
    await initializeAll(b);
    const from = b.frames.length;
    const listId = await b.sendRequest("session.list", {});
    const busy = await b.request("model.catalog", {});
    assert.deepEqual(busy.error, { code: "busy" }, "one worker operation at a time");
    assert.equal((await b.call("status")).state, "idle", "status stays responsive");
    const stale = await b.request("operation.cancel", { operation_id: "never-sent" });
    assert.deepEqual(stale.error, { code: "stale_operation" });
    const cancel = await b.request("operation.cancel", { operation_id: listId });
    assert.deepEqual(cancel.result, { cancellation_requested: true });
    const answered = await b.waitResponse(listId, 2_000, from);
    assert.deepEqual(answered.error, { code: "operation_cancelled" });
    const again = await b.request("operation.cancel", { operation_id: listId });
    assert.deepEqual(again.error, { code: "stale_operation" }, "already answered");
    const bad = await b.request("operation.cancel", { operation_id: "bad id!" });
    assert.deepEqual(bad.error, { code: "invalid_params" });
  });
});

Deno.test("shutdown answers a pending operation with operation_cancelled", {
  ignore: !REFERENCE,
}, async () => {
  await withBackend({ env: { MAGI_OPERATION_DELAY_MS: "5000" } }, async (b) => {
    await initializeAll(b);
    const from = b.frames.length;
    const id = await b.sendRequest("model.catalog", {});
    // Pending (its start delay is 5 s) once a later status is answered: frames are handled in
    // order. The event, instead of a 50 ms sleep.
    await b.call("status");
    await b.sendRequest("shutdown", {});
    assert.deepEqual((await b.waitResponse(id, 2_000, from)).error, {
      code: "operation_cancelled",
    });
    assert.equal(await b.expectExit(0), 0);
  });
});
