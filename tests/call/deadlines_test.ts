import assert from "node:assert/strict";
import { SharedDeadlines } from "../../src/call/_deadlines.ts";
import { FakeTime } from "../_fake_time.ts";

Deno.test("SharedDeadlines fires each deadline once, earliest first, also one added earlier than the armed one", async () => {
  const time = new FakeTime();
  const deadlines = new SharedDeadlines(time);
  const fired: string[] = [];
  deadlines.schedule(60, () => fired.push("60"));
  deadlines.schedule(40, () => fired.push("40"));
  deadlines.schedule(10, () => fired.push("10"));
  assert.equal(deadlines.size, 3);
  assert.equal(time.pending, 1, "one timer serves them all");
  await time.tick(25);
  assert.deepEqual(fired, ["10"]);
  await time.tick(60);
  assert.deepEqual(fired, ["10", "40", "60"]);
  assert.equal(deadlines.size, 0);
  assert.equal(time.pending, 0);
});

Deno.test("SharedDeadlines does not fire a cancelled deadline, and cancelling twice is harmless", async () => {
  const time = new FakeTime();
  const deadlines = new SharedDeadlines(time);
  const fired: string[] = [];
  const cancel = deadlines.schedule(10, () => fired.push("cancelled"));
  deadlines.schedule(20, () => fired.push("kept"));
  cancel();
  cancel();
  assert.equal(deadlines.size, 1);
  await time.tick(40);
  assert.deepEqual(fired, ["kept"]);
});

Deno.test("SharedDeadlines serves a later deadline from a timer left by a cancelled earlier one", async () => {
  const time = new FakeTime();
  const deadlines = new SharedDeadlines(time);
  const fired: number[] = [];
  const t0 = time.now();
  deadlines.schedule(10, () => fired.push(-1))();
  // Nothing pending now; the next deadline is later than the timer left armed.
  deadlines.schedule(40, () => fired.push(time.now() - t0));
  await time.tick(20);
  assert.deepEqual(fired, []);
  await time.tick(40);
  assert.equal(fired.length, 1);
  assert.ok(fired[0]! >= 39, `fired after ${fired[0]} ms`);
  assert.equal(fired[0], 40, "exactly at its deadline");
});

Deno.test("SharedDeadlines on the real clock fires a deadline (the default timers work)", async () => {
  const deadlines = new SharedDeadlines();
  const fired = Promise.withResolvers<string>();
  deadlines.schedule(1, () => fired.resolve("fired"));
  assert.equal(await fired.promise, "fired");
  assert.equal(deadlines.size, 0);
});
