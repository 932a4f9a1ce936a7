/**
 * Request IDs of rejected but well-formed requests are retained (`duplicate_id` on reuse,
 * counted toward the 4,096), and any `initialize` after admission is `already_initialized`.
 */

import assert from "node:assert/strict";
import { type ResponseFrame, withBackend } from "./_harness.ts";
import { initialize } from "./_fixtures.ts";
import { envelope, frame } from "./_wire.ts";
import { REQUEST_IDS } from "../../src/protocol/limits.ts";

/** Envelopes with an intact ID whose params are rejected before any method runs. */
const REJECTED_PARAMS: ReadonlyArray<readonly [string, (id: string) => string]> = [
  ["params an array", (id) => envelope(id, "status", [])],
  ["params a string", (id) => envelope(id, "status", "x")],
  ["params null", (id) => envelope(id, "status", null)],
  [
    "a duplicate key inside params",
    (id) =>
      `{"protocol":"magi-code.local-agent","version":1,"id":"${id}","method":"status",` +
      `"params":{"a":1,"a":2}}`,
  ],
];

for (const [name, build] of REJECTED_PARAMS) {
  Deno.test(`request IDs: one rejected for ${name} is retained: reuse is duplicate_id`, async () => {
    await withBackend({}, async (b) => {
      await initialize(b);
      const from = b.frames.length;
      await b.send(`${build("kept-1")}\n`);
      const first = await b.waitResponse("kept-1", undefined, from);
      assert.deepEqual(first.error, { code: "invalid_params" });
      // The same ID on a request that would succeed: never runs.
      const again = await b.request("status", {}, { id: "kept-1" });
      assert.deepEqual(again.error, { code: "duplicate_id" });
      assert.equal(again.result, undefined);
      // And a second malformed one with the same ID is duplicate_id too.
      const at = b.frames.length;
      await b.send(`${build("kept-1")}\n`);
      assert.deepEqual((await b.waitResponse("kept-1", undefined, at)).error, {
        code: "duplicate_id",
      });
    });
  });
}

Deno.test("request IDs: rejected well-formed requests count toward the 4,096", async () => {
  await withBackend({}, async (b) => {
    // Half the budget with non-object params, half with well-formed requests.
    const half = REQUEST_IDS / 2;
    for (let at = 0; at < half; at += 16) {
      const from = b.frames.length;
      const ids = Array.from({ length: 16 }, (_, i) => `p${at + i}`);
      await b.send(ids.map((id) => `${envelope(id, "status", [])}\n`).join(""));
      for (const id of ids) {
        assert.deepEqual((await b.waitResponse(id, undefined, from)).error, {
          code: "invalid_params",
        });
      }
    }
    const rest = Array.from({ length: half }, (_, i) => ({
      id: `q${i}`,
      method: "status",
      params: {},
    }));
    const answers = await b.pipeline(rest);
    assert.ok(answers.every((r) => r.error?.code === "not_initialized"), "all answered");
    await b.send(frame("one-too-many", "status", {}));
    const res = await b.waitFrame(
      (f): f is ResponseFrame => f.type === "response" && f.error?.code === "request_limit",
      "request_limit",
    );
    assert.ok(res.type === "response" && (res.id === "one-too-many" || res.id === null));
    await b.expectExit([0, 1]);
  });
});

Deno.test("initialize after admission is already_initialized whatever its params", async () => {
  await withBackend({}, async (b) => {
    await initialize(b);
    const malformed: unknown[] = [
      {},
      { required_capabilities: "status" },
      { required_capabilities: ["status"], unknown_field: 1 },
      { required_capabilities: ["not a capability!"] },
    ];
    for (const params of malformed) {
      const res = await b.request("initialize", params);
      assert.deepEqual(res.error, { code: "already_initialized" }, JSON.stringify(params));
    }
    const valid = await b.request("initialize", { required_capabilities: ["status"] });
    assert.deepEqual(valid.error, { code: "already_initialized" });
    assert.equal((await b.call("status")).readiness, "ready", "the connection stays usable");
  });
});

Deno.test("initialize with malformed params before admission stays correctable", async () => {
  await withBackend({}, async (b) => {
    const bad = await b.request("initialize", { required_capabilities: "status" });
    assert.deepEqual(bad.error, { code: "invalid_params" });
    const result = await initialize(b);
    assert.ok(Array.isArray(result.capabilities));
  });
});
