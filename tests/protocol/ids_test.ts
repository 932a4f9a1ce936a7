import assert from "node:assert/strict";
import { RequestIdRegistry } from "../../src/protocol/ids.ts";
import { REQUEST_IDS } from "../../src/protocol/limits.ts";

Deno.test("RequestIdRegistry admits a new ID once and reports a duplicate", () => {
  const ids = new RequestIdRegistry();
  assert.equal(ids.admit("r1"), "ok");
  assert.equal(ids.admit("r1"), "duplicate_id");
  assert.equal(ids.has("r1"), true);
  assert.equal(ids.has("r2"), false);
  assert.equal(ids.size, 1);
});

Deno.test("RequestIdRegistry allows 4096 IDs and refuses the 4097th", () => {
  const ids = new RequestIdRegistry();
  for (let i = 1; i <= REQUEST_IDS; i++) assert.equal(ids.admit(`r${i}`), "ok");
  assert.equal(ids.size, 4096);
  assert.equal(ids.admit("r4097"), "request_limit");
  assert.equal(ids.has("r4097"), false);
  assert.equal(ids.size, 4096);
});

Deno.test("RequestIdRegistry reports a duplicate before the limit", () => {
  const ids = new RequestIdRegistry(2);
  ids.admit("a");
  ids.admit("b");
  assert.equal(ids.admit("c"), "request_limit");
  assert.equal(ids.admit("a"), "duplicate_id");
  assert.equal(ids.admit("b"), "duplicate_id");
});

Deno.test("RequestIdRegistry rejects an invalid capacity", () => {
  assert.throws(() => new RequestIdRegistry(-1), RangeError);
  assert.throws(() => new RequestIdRegistry(1.5), RangeError);
});
