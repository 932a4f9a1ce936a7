import assert from "node:assert/strict";
import { DISCOVERY_SCAN_BYTES, DISCOVERY_SCAN_MS } from "../../../src/protocol/limits.ts";
import { ScanBudget } from "../../../src/reference_backend/sessions/inventory.ts";

Deno.test("ScanBudget.check() is discovery_limit once the scan deadline has passed", () => {
  let now = 1_000;
  const budget = new ScanBudget(undefined, { now: () => now });
  assert.equal(budget.check(), null);
  now += DISCOVERY_SCAN_MS;
  assert.equal(budget.check(), null, "at the deadline");
  now += 1;
  assert.equal(budget.check(), "discovery_limit");
});

Deno.test("ScanBudget.check() is operation_cancelled once its signal aborts", () => {
  const controller = new AbortController();
  const budget = new ScanBudget(controller.signal);
  controller.abort();
  assert.equal(budget.check(), "operation_cancelled");
});

Deno.test("ScanBudget.charge() admits up to the scan bounds and reports what is left", () => {
  const budget = new ScanBudget();
  assert.equal(budget.charge(DISCOVERY_SCAN_BYTES - 10, 5), true);
  assert.equal(budget.bytesLeft, 10);
  assert.equal(budget.charge(10, 0), true, "exactly at the bound");
  assert.equal(budget.charge(1, 0), false);
  assert.equal(budget.bytesLeft, 0);
});
