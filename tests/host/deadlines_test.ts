import assert from "node:assert/strict";
import { SharedDeadlines } from "../../src/host/_deadlines.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("SharedDeadlines fires each deadline once, earliest first, also one added earlier than the armed one", async () => {
  const deadlines = new SharedDeadlines();
  const fired: string[] = [];
  deadlines.schedule(60, () => fired.push("60"));
  deadlines.schedule(40, () => fired.push("40"));
  deadlines.schedule(10, () => fired.push("10"));
  assert.equal(deadlines.size, 3);
  await sleep(25);
  assert.deepEqual(fired, ["10"]);
  await sleep(60);
  assert.deepEqual(fired, ["10", "40", "60"]);
  assert.equal(deadlines.size, 0);
});

Deno.test("SharedDeadlines does not fire a cancelled deadline, and cancelling twice is harmless", async () => {
  const deadlines = new SharedDeadlines();
  const fired: string[] = [];
  const cancel = deadlines.schedule(10, () => fired.push("cancelled"));
  deadlines.schedule(20, () => fired.push("kept"));
  cancel();
  cancel();
  assert.equal(deadlines.size, 1);
  await sleep(40);
  assert.deepEqual(fired, ["kept"]);
});

Deno.test("SharedDeadlines serves a later deadline from a timer left by a cancelled earlier one", async () => {
  const deadlines = new SharedDeadlines();
  const fired: number[] = [];
  const t0 = performance.now();
  deadlines.schedule(10, () => fired.push(-1))();
  // Nothing pending now; the next deadline is later than the timer left armed.
  deadlines.schedule(40, () => fired.push(performance.now() - t0));
  await sleep(20);
  assert.deepEqual(fired, []);
  await sleep(40);
  assert.equal(fired.length, 1);
  assert.ok(fired[0]! >= 39, `fired after ${fired[0]} ms`);
});
