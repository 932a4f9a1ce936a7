import assert from "node:assert/strict";
import { SIGINT_COALESCE_MS, StopState } from "../../src/run/stop.ts";

/** A StopState on a clock the test moves. */
function clocked(): { stop: StopState; at: (ms: number) => void } {
  let t = 1_000;
  return { stop: new StopState({ now: () => t }), at: (ms) => (t = 1_000 + ms) };
}

Deno.test("StopState: the first SIGINT stops softly, the second hard", () => {
  const { stop, at } = clocked();
  const causes: string[] = [];
  stop.onSoftStop((cause) => causes.push(cause));
  stop.interrupt();
  assert.equal(stop.soft.signal.aborted, true);
  assert.equal(stop.hard.signal.aborted, false);
  assert.deepEqual(causes, ["signal"]);
  at(SIGINT_COALESCE_MS);
  stop.interrupt();
  assert.equal(stop.hard.signal.aborted, true);
  assert.equal(stop.hardCause, "signal");
});

Deno.test("StopState: SIGINTs within the coalescing window are one Ctrl-C", () => {
  const { stop, at } = clocked();
  const causes: string[] = [];
  stop.onSoftStop((cause) => causes.push(cause));
  stop.interrupt();
  // The terminal's SIGINT, then the copies `deno task` and `npx` forward.
  for (const ms of [1, 5, 40, SIGINT_COALESCE_MS - 1]) {
    at(ms);
    stop.interrupt();
    assert.equal(stop.hard.signal.aborted, false, `SIGINT at +${ms} ms forced the stop`);
  }
  assert.deepEqual(causes, ["signal"]);
  assert.equal(stop.cause, "signal");
  assert.equal(stop.hardCause, null);
  // A deliberate second Ctrl-C later still forces it.
  at(SIGINT_COALESCE_MS + 200);
  stop.interrupt();
  assert.equal(stop.hard.signal.aborted, true);
  assert.equal(stop.hardCause, "signal");
});

Deno.test("StopState: the window counts from the SIGINT that took effect, not the last copy", () => {
  const { stop, at } = clocked();
  stop.interrupt();
  at(SIGINT_COALESCE_MS - 100);
  stop.interrupt(); // a copy: ignored, and it does not extend the window
  at(SIGINT_COALESCE_MS);
  stop.interrupt();
  assert.equal(stop.hardCause, "signal");
});

Deno.test("StopState: coalesceMs 0 takes every SIGINT", () => {
  const stop = new StopState({ coalesceMs: 0, now: () => 0 });
  stop.interrupt();
  stop.interrupt();
  assert.equal(stop.hardCause, "signal");
});

Deno.test("StopState: the default window is between 300 and 500 ms", () => {
  assert.ok(SIGINT_COALESCE_MS >= 300 && SIGINT_COALESCE_MS <= 500, String(SIGINT_COALESCE_MS));
});

Deno.test("StopState: a SIGINT after a timeout escalates to a hard stop by signal", () => {
  const stop = new StopState();
  stop.timeout();
  assert.equal(stop.cause, "timeout");
  stop.interrupt();
  assert.equal(stop.cause, "signal");
  assert.equal(stop.hardCause, "signal");
});

Deno.test("StopState: a late soft-stop listener is called at once", () => {
  const stop = new StopState();
  stop.timeout();
  let called = "";
  stop.onSoftStop((cause) => (called = cause));
  assert.equal(called, "timeout");
});
