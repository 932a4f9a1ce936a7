import assert from "node:assert/strict";
import { StopState } from "../../src/cli/stop.ts";

Deno.test("StopState: the first SIGINT stops softly, the second hard", () => {
  const stop = new StopState();
  const causes: string[] = [];
  stop.onSoftStop((cause) => causes.push(cause));
  stop.interrupt();
  assert.equal(stop.soft.signal.aborted, true);
  assert.equal(stop.hard.signal.aborted, false);
  assert.deepEqual(causes, ["signal"]);
  stop.interrupt();
  assert.equal(stop.hard.signal.aborted, true);
  assert.equal(stop.hardCause, "signal");
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
