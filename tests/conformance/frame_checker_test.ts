/**
 * The suite's own output-frame checker must catch each wire-contract violation, or the
 * conformance tests would pass vacuously.
 */

import assert from "node:assert/strict";
import { FrameChecker } from "./_frames.ts";

const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const enc = new TextEncoder();

function response(seq: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: "magi-code.local-agent",
    version: 1,
    type: "response",
    instance_id: ID,
    seq,
    id: "r1",
    result: {},
    ...extra,
  };
}

function event(seq: number, name: string, data: Record<string, unknown>): Record<string, unknown> {
  return {
    protocol: "magi-code.local-agent",
    version: 1,
    type: "event",
    instance_id: ID,
    seq,
    event: name,
    data: { session_id: "s", run_id: "r", ...data },
  };
}

const FINISHED = { outcome: "completed", persistence: "durable", revision: "v", error_code: null };

function violations(frames: readonly (Record<string, unknown> | string)[]): string[] {
  const checker = new FrameChecker();
  for (const f of frames) checker.check(enc.encode(typeof f === "string" ? f : JSON.stringify(f)));
  return [...checker.violations];
}

Deno.test("FrameChecker accepts a well-formed response and run", () => {
  assert.deepEqual(
    violations([
      response(1),
      response(2, { id: null, result: undefined, error: { code: "invalid_frame" } }),
      event(3, "diagnostic", { code: "x", summary: "y" }),
      event(4, "run.finished", FINISHED),
    ]),
    [],
  );
});

const BAD: ReadonlyArray<readonly [string, (Record<string, unknown> | string)[]]> = [
  ["a seq gap", [response(1), response(3)]],
  ["seq not starting at 1", [response(2)]],
  ["a changed instance_id", [response(1), { ...response(2), instance_id: crypto.randomUUID() }]],
  ["an uppercase instance_id", [{ ...response(1), instance_id: ID.toUpperCase() }]],
  ["an extra envelope field", [{ ...response(1), extra: 1 }]],
  ["both result and error", [{ ...response(1), error: { code: "busy" } }]],
  ["an unknown error code", [response(1, { result: undefined, error: { code: "nope" } })]],
  ["error text beside the code", [
    response(1, { result: undefined, error: { code: "busy", message: "x" } }),
  ]],
  ["an unknown frame type", [{ ...response(1), type: "notice" }]],
  ["an unknown event", [event(1, "title.updated", {})]],
  ["a client tool event without negotiation", [
    event(1, "client.tool.cancel", { call_id: "c", reason: "deadline" }),
  ]],
  ["an extra event data field", [event(1, "diagnostic", { code: "x", summary: "y", raw: "z" })]],
  ["an unknown enum value", [event(1, "run.finished", { ...FINISHED, outcome: "done" })]],
  ["an event after run.finished", [
    event(1, "run.finished", FINISHED),
    event(2, "diagnostic", { code: "x", summary: "y" }),
  ]],
  ["a delta over 4,000 bytes", [
    event(1, "message.delta", { message_id: "m", part: 0, text: "x".repeat(4_001) }),
  ]],
  ["a duplicate key", ['{"protocol":"magi-code.local-agent","protocol":"magi-code.local-agent"}']],
  ["not JSON", ["{"]],
  ["a frame over 65,536 bytes", [response(1, { result: { pad: "x".repeat(65_536) } })]],
];
for (const [name, frames] of BAD) {
  Deno.test(`FrameChecker reports ${name}`, () => {
    assert.notDeepEqual(violations(frames), []);
  });
}
