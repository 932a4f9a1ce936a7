import assert from "node:assert/strict";
import { parseStrictJson } from "../../../src/protocol/json.ts";
import {
  EventFrameSchema,
  OutputFrameSchema,
  RequestFrameSchema,
  ResponseFrameSchema,
} from "../../../src/protocol/schemas/frames.ts";
import { METHOD_SCHEMAS } from "../../../src/protocol/schemas/mod.ts";
import { assertAccepts, assertRejects, without } from "./_assert.ts";

const OUT = {
  protocol: "magi-code.local-agent",
  version: 1,
  instance_id: "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
  seq: 1,
};
const RESULT = { ...OUT, type: "response", id: "r1", result: { state: "stopping" } };
const ERROR = { ...OUT, type: "response", id: null, error: { code: "invalid_request" } };
const EVENT = {
  ...OUT,
  type: "event",
  seq: 7,
  event: "message.delta",
  data: { session_id: "s", run_id: "r", message_id: "m", part: 0, text: "hi" },
};

Deno.test("ResponseFrameSchema requires exactly one of result and error", () => {
  assertAccepts(ResponseFrameSchema, [["result", RESULT], ["error with null id", ERROR]]);
  assertRejects(ResponseFrameSchema, [
    ["both", { ...RESULT, error: { code: "busy" } }],
    ["neither", without(RESULT, "result")],
    ["error with message", { ...ERROR, error: { code: "busy", message: "x" } }],
    ["unknown field", { ...RESULT, extra: 1 }],
    ["seq 0", { ...RESULT, seq: 0 }],
    ["uppercase instance_id", { ...RESULT, instance_id: OUT.instance_id.toUpperCase() }],
    ["protocol mismatch", { ...RESULT, protocol: "other" }],
    ["version 2", { ...RESULT, version: 2 }],
    ["type event", { ...RESULT, type: "event" }],
    ["missing id", without(RESULT, "id")],
  ]);
});

Deno.test("EventFrameSchema requires a known event name and object data", () => {
  assertAccepts(EventFrameSchema, [["delta", EVENT], ["tool call", {
    ...EVENT,
    event: "client.tool.call",
  }]]);
  assertRejects(EventFrameSchema, [
    ["unknown event", { ...EVENT, event: "message.done" }],
    ["array data", { ...EVENT, data: [] }],
    ["with id", { ...EVENT, id: "r1" }],
    ["missing seq", without(EVENT, "seq")],
  ]);
  assertAccepts(OutputFrameSchema, [["response", RESULT], ["event", EVENT]]);
  assertRejects(OutputFrameSchema, [["unknown type", { ...EVENT, type: "notification" }]]);
});

Deno.test("RequestFrameSchema is exactly protocol, version, id, method, params", () => {
  const request = {
    protocol: "magi-code.local-agent",
    version: 1,
    id: "r1",
    method: "initialize",
    params: { required_capabilities: ["status", "shutdown"] },
  };
  assertAccepts(RequestFrameSchema, [["spec example", request]]);
  assertRejects(RequestFrameSchema, [
    ["extra", { ...request, jsonrpc: "2.0" }],
    ["params array", { ...request, params: [] }],
    ["null id", { ...request, id: null }],
  ]);
});

Deno.test("a duplicate key inside params is rejected by parseStrictJson before schemas run", () => {
  const text =
    `{"protocol":"magi-code.local-agent","version":1,"id":"r1","method":"turn.start","params":{"session_id":"s","prompt":"a","prompt":"b"}}`;
  const parsed = parseStrictJson(text);
  assert.equal(parsed.ok, false);
  assert.equal(!parsed.ok && parsed.code, "invalid_request");
  // JSON.parse would silently keep the last value, and the schema alone would accept it.
  const lenient = JSON.parse(text);
  assert.ok(METHOD_SCHEMAS["turn.start"].params.safeParse(lenient.params).success);
});
