import assert from "node:assert/strict";
import { settleWithin, waitWithin } from "../../src/async/deadline.ts";
import { FakeTime } from "../_fake_time.ts";

const never = () => new Promise<never>(() => {});

Deno.test("waitWithin() answers the value of a promise that fulfils in time", async () => {
  assert.equal(await waitWithin(Promise.resolve("done"), 1_000), "done");
});

Deno.test("waitWithin() answers undefined when the time runs out first", async () => {
  const time = new FakeTime();
  const started = time.now();
  let answered = false;
  const waiting = waitWithin(never(), 20, { clock: time }).finally(() => answered = true);
  await time.tick(19);
  assert.equal(answered, false, "not before the time ran out");
  await time.tick(1);
  assert.equal(await waiting, undefined);
  assert.ok(time.now() - started >= 15, "it waited about the given time");
  assert.equal(time.pending, 0, "its timer is gone");
});

Deno.test("waitWithin() on the real clock answers undefined once the time ran out", async () => {
  assert.equal(await waitWithin(never(), 1), undefined);
});

Deno.test("waitWithin() passes on a rejection that comes in time", async () => {
  await assert.rejects(waitWithin(Promise.reject(new RangeError("boom")), 1_000), RangeError);
});

Deno.test("waitWithin() stops waiting when the signal aborts, and at once if aborted", async () => {
  const controller = new AbortController();
  const waiting = waitWithin(never(), 60_000, { signal: controller.signal });
  controller.abort();
  assert.equal(await waiting, undefined);
  assert.equal(
    await waitWithin(Promise.resolve(1), 1_000, { signal: controller.signal }),
    undefined,
  );
});

Deno.test("waitWithin() with Infinity arms no timer and waits for the signal", async () => {
  const controller = new AbortController();
  const time = new FakeTime();
  let resolved = false;
  const waiting = waitWithin(never(), Infinity, { signal: controller.signal, clock: time }).then(
    (value) => {
      resolved = true;
      return value;
    },
  );
  assert.equal(time.pending, 0, "no timer armed");
  await time.tick(3_600_000);
  assert.equal(resolved, false, "Infinity is not a zero-length timer");
  controller.abort();
  assert.equal(await waiting, undefined);
});

Deno.test("waitWithin() removes its abort listener and clears its timer when done", async () => {
  const controller = new AbortController();
  let added = 0;
  let removed = 0;
  const signal = controller.signal;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => {
    added++;
    add(...args);
  };
  signal.removeEventListener = (...args: Parameters<typeof remove>) => {
    removed++;
    remove(...args);
  };
  // A 60 s timer left armed would fail Deno's op sanitizer for this test.
  assert.equal(await waitWithin(Promise.resolve(7), 60_000, { signal }), 7);
  assert.equal(added, 1);
  assert.equal(removed, 1);
});

Deno.test("settleWithin() is true for a fulfilment or a rejection in time, false after", async () => {
  assert.equal(await settleWithin(Promise.resolve(1), 1_000), true);
  assert.equal(await settleWithin(Promise.reject(new Error("no")), 1_000), true);
  const time = new FakeTime();
  const settling = settleWithin(never(), 10, { clock: time });
  await time.tick(10);
  assert.equal(await settling, false);
  const controller = new AbortController();
  controller.abort();
  assert.equal(await settleWithin(never(), 60_000, { signal: controller.signal }), false);
});
