import assert from "node:assert/strict";
import { type Clock, REAL_CLOCK } from "../../src/async/clock.ts";
import { FakeTime } from "../_fake_time.ts";

/** What both clocks must do alike: a timeout fires once, a cleared one never, an interval repeats. */
async function timerContract(clock: Clock, advance: (ms: number) => Promise<void>) {
  const fired: string[] = [];
  const ran = Promise.withResolvers<void>();
  clock.setTimeout(() => fired.push("kept"), 2);
  const cleared = clock.setTimeout(() => fired.push("cleared"), 1);
  clock.clearTimeout(cleared);
  clock.clearTimeout(undefined);
  let ticks = 0;
  const interval = clock.setInterval(() => {
    if (++ticks === 3) {
      clock.clearInterval(interval);
      ran.resolve();
    }
  }, 1);
  await advance(5);
  await ran.promise;
  assert.deepEqual(fired, ["kept"]);
  assert.equal(ticks, 3);
}

Deno.test("REAL_CLOCK fires timeouts once, never a cleared one, and repeats intervals", async () => {
  const started = REAL_CLOCK.now();
  await timerContract(REAL_CLOCK, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  assert.ok(REAL_CLOCK.now() >= started);
});

Deno.test("FakeTime keeps the same timer contract as the real clock", async () => {
  const time = new FakeTime();
  await timerContract(time, (ms) => time.tick(ms));
  assert.equal(time.pending, 0);
});

Deno.test("FakeTime stands still until ticked, then fires due timers in due order at their time", async () => {
  const time = new FakeTime(100);
  const fired: Array<[string, number]> = [];
  time.setTimeout(() => fired.push(["b", time.now()]), 20);
  time.setTimeout(() => fired.push(["a", time.now()]), 10);
  time.setTimeout(() => fired.push(["a2", time.now()]), 10);
  assert.equal(time.now(), 100);
  assert.equal(time.nextAt, 110);
  await time.tick(9);
  assert.deepEqual(fired, []);
  await time.tick(11);
  assert.deepEqual(fired, [["a", 110], ["a2", 110], ["b", 120]]);
  assert.equal(time.now(), 120);
});

Deno.test("FakeTime fires a timer armed by a callback, or after an await, within the same tick", async () => {
  const time = new FakeTime();
  const fired: number[] = [];
  time.setTimeout(async () => {
    await Promise.resolve();
    time.setTimeout(() => fired.push(time.now()), 5);
  }, 5);
  await time.tick(10);
  assert.deepEqual(fired, [10]);
});

Deno.test("FakeTime.next() jumps to the next timer, tickUntil() fails after its fake deadline", async () => {
  const time = new FakeTime();
  let done = false;
  time.setTimeout(() => done = true, 250);
  assert.equal(await time.next(), true);
  assert.equal(time.now(), 250);
  assert.equal(done, true);
  assert.equal(await time.next(), false);
  await assert.rejects(time.tickUntil(() => false, 50, 10), /not met within 50 ms/);
  assert.equal(time.now(), 300);
});
