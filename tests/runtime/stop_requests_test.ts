import assert from "node:assert/strict";
import type { WatchTimers } from "../../src/runtime/parent_watch.ts";
import { type StopRequestDeps, stopRequests } from "../../src/runtime/stop_requests.ts";
import type { StopSignal } from "../../src/runtime/types.ts";

/** A fake runtime: signals and timers fired by hand, every call logged in order. */
function fakeRuntime(startPpid = 4242) {
  const log: string[] = [];
  const heard = new Map<StopSignal, Set<() => void>>([["SIGINT", new Set()], [
    "SIGTERM",
    new Set(),
  ]]);
  const ticks = new Set<() => void>();
  const graces: Array<() => void> = [];
  let ppid = startPpid;
  const timers: WatchTimers = {
    every(fn) {
      ticks.add(fn);
      return () => ticks.delete(fn);
    },
    after(fn) {
      graces.push(fn);
      return () => graces.splice(graces.indexOf(fn), 1);
    },
  };
  const deps: StopRequestDeps = {
    startPpid,
    ppid: () => ppid,
    onSignal(signal, listener) {
      log.push(`listen ${signal}`);
      heard.get(signal)!.add(listener);
      return () => {
        log.push(`unlisten ${signal}`);
        heard.get(signal)!.delete(listener);
      };
    },
    timers,
    warn: (line) => log.push(`warn ${line}`),
  };
  return {
    deps,
    log,
    send: (signal: StopSignal) => [...heard.get(signal)!].forEach((fn) => fn()),
    listening: (signal: StopSignal) => heard.get(signal)!.size,
    parentDies: () => {
      ppid = 1;
      [...ticks].forEach((fn) => fn());
    },
    ticking: () => ticks.size,
    graces,
  };
}

Deno.test("stopRequests: SIGINT, then SIGTERM, are listened to per listener, in that order, and removed", () => {
  const fake = fakeRuntime();
  const stops = stopRequests(fake.deps);
  const remove = stops.onInterrupt(() => {});
  assert.deepEqual(fake.log, ["listen SIGINT", "listen SIGTERM"]);
  assert.equal(fake.ticking(), 1, "the parent watch runs while someone listens");
  remove();
  assert.deepEqual(fake.log.slice(2), ["unlisten SIGINT", "unlisten SIGTERM"]);
  assert.equal(fake.listening("SIGINT") + fake.listening("SIGTERM"), 0);
  assert.equal(fake.ticking(), 0, "the parent watch stops with the last listener");
});

Deno.test("stopRequests: the first stop signal is the one remembered", () => {
  const fake = fakeRuntime();
  const stops = stopRequests(fake.deps);
  const calls: string[] = [];
  stops.onInterrupt(() => calls.push("a"));
  assert.equal(stops.stopSignal(), null);
  fake.send("SIGTERM");
  fake.send("SIGINT");
  assert.equal(stops.stopSignal(), "SIGTERM");
  assert.deepEqual(calls, ["a", "a"]);
});

Deno.test("stopRequests: the parent's death is a first Ctrl-C to every listener, told once, and a second after the grace", () => {
  const fake = fakeRuntime(777);
  const stops = stopRequests(fake.deps);
  const calls: string[] = [];
  stops.onInterrupt(() => calls.push("a"));
  const removeB = stops.onInterrupt(() => calls.push("b"));
  // One listener registered twice is called once per registration.
  const twice = () => calls.push("c");
  stops.onInterrupt(twice);
  stops.onInterrupt(twice);
  assert.equal(fake.ticking(), 1, "one parent watch for all listeners");
  fake.parentDies();
  assert.deepEqual(calls, ["a", "b", "c", "c"]);
  assert.equal(stops.stopSignal(), "SIGINT");
  assert.deepEqual(fake.log.filter((line) => line.startsWith("warn")), [
    "warn magi-tools: the parent process (pid 777) exited: stopping as on Ctrl-C",
  ]);
  removeB();
  assert.equal(fake.graces.length, 1);
  fake.graces[0]!();
  assert.deepEqual(calls.slice(4), ["a", "c", "c"], "the second request skips a removed listener");
  assert.equal(fake.log.filter((line) => line.startsWith("warn")).length, 1);
});

Deno.test("stopRequests: no second request once every listener is gone", () => {
  const fake = fakeRuntime();
  const stops = stopRequests(fake.deps);
  const calls: number[] = [];
  const remove = stops.onInterrupt(() => calls.push(1));
  fake.parentDies();
  remove();
  assert.equal(fake.graces.length, 0, "the grace timer is cancelled with the watch");
  assert.deepEqual(calls, [1]);
});
