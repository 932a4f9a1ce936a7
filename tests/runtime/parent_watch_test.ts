import assert from "node:assert/strict";
import { watchParent, type WatchTimers } from "../../src/runtime/parent_watch.ts";

/** Fake timers: the test fires the interval and the grace timer by hand. */
function fakeTimers() {
  const ticks = new Set<() => void>();
  const graces: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  const timers: WatchTimers = {
    every(fn) {
      ticks.add(fn);
      return () => ticks.delete(fn);
    },
    after(fn, ms) {
      const entry = { fn, ms, cancelled: false };
      graces.push(entry);
      return () => entry.cancelled = true;
    },
  };
  return {
    timers,
    tick: () => [...ticks].forEach((fn) => fn()),
    ticking: () => ticks.size,
    graces,
  };
}

Deno.test("watchParent: nothing while the parent lives; a first, then after the grace a second stop request when it dies", () => {
  let ppid = 4242;
  const fake = fakeTimers();
  const gone: boolean[] = [];
  const stop = watchParent({
    ppid: () => ppid,
    timers: fake.timers,
    onGone: (again) => gone.push(again),
    graceMs: 1234,
  });
  for (let i = 0; i < 5; i++) fake.tick();
  assert.deepEqual(gone, []);
  assert.equal(fake.graces.length, 0);
  ppid = 1; // re-parented to init: the parent died
  fake.tick();
  assert.deepEqual(gone, [false]);
  assert.equal(fake.ticking(), 0, "polling ends once the parent is gone");
  assert.equal(fake.graces.length, 1);
  assert.equal(fake.graces[0]!.ms, 1234);
  fake.graces[0]!.fn();
  assert.deepEqual(gone, [false, true]);
  stop();
});

Deno.test("watchParent: a subreaper taking the orphan counts as the parent's death too", () => {
  let ppid = 300;
  const fake = fakeTimers();
  const gone: boolean[] = [];
  watchParent({ ppid: () => ppid, timers: fake.timers, onGone: (again) => gone.push(again) });
  ppid = 17;
  fake.tick();
  assert.deepEqual(gone, [false]);
});

Deno.test("watchParent: stopping the watch cancels the poll and a pending second request", () => {
  let ppid = 300;
  const fake = fakeTimers();
  const gone: boolean[] = [];
  const stop = watchParent({
    ppid: () => ppid,
    timers: fake.timers,
    onGone: (again) => gone.push(again),
  });
  ppid = 1;
  fake.tick();
  stop();
  assert.equal(fake.graces[0]!.cancelled, true);
  stop(); // idempotent
  assert.deepEqual(gone, [false]);
});

Deno.test("watchParent: a parent already gone when the watch starts (startPpid) stops at once", () => {
  const fake = fakeTimers();
  const gone: boolean[] = [];
  watchParent({
    ppid: () => 1,
    startPpid: 99,
    timers: fake.timers,
    onGone: (again) => gone.push(again),
  });
  assert.deepEqual(gone, [false]);
});

Deno.test("watchParent: a process started under PID 1 has no parent to lose: no watch", () => {
  const fake = fakeTimers();
  const gone: boolean[] = [];
  watchParent({ ppid: () => 1, timers: fake.timers, onGone: (again) => gone.push(again) });
  fake.tick();
  assert.equal(fake.ticking(), 0);
  assert.deepEqual(gone, []);
});
