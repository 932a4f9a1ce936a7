import assert from "node:assert/strict";
import {
  decodeOutputFrame,
  decodeRequest,
  eventFrame,
  isWireId,
  requestFrame,
  responseFrame,
} from "../../src/protocol/envelope.ts";

type Fields = Record<string, unknown>;
const BASE: Fields = {
  protocol: "magi-code.local-agent",
  version: 1,
  id: "r1",
  method: "status",
  params: {},
};

function req(changes: Fields, drop: string[] = []): string {
  const value: Fields = { ...BASE, ...changes };
  for (const key of drop) delete value[key];
  return JSON.stringify(value);
}

const ID64 = "a".repeat(64);
const ID65 = "a".repeat(65);

const CASES: [string, string, unknown][] = [
  ["a valid request", req({}), { ok: true, id: "r1", method: "status", params: {} }],
  ["a 64-byte id", req({ id: ID64 }), { ok: true, id: ID64, method: "status", params: {} }],
  ["params with content", req({ method: "initialize", params: { x: [1] } }), {
    ok: true,
    id: "r1",
    method: "initialize",
    params: { x: [1] },
  }],
  ["too deep JSON", '{"a":'.repeat(33) + "1" + "}".repeat(33), {
    ok: false,
    id: null,
    code: "invalid_frame",
    close: false,
  }],
  ["a syntax error", req({}).slice(0, -1), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["a duplicate top-level field", req({}).slice(0, -1) + ',"id":"r2"}', {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["a duplicate params field", req({}).slice(0, -1) + ',"params":{}}', {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  [
    "a duplicate key in params",
    req({ params: {} }).replace('"params":{}', '"params":{"a":1,"a":2}'),
    {
      ok: false,
      id: "r1",
      code: "invalid_params",
      close: false,
    },
  ],
  [
    "a duplicate key deep in params",
    req({ params: {} }).replace('"params":{}', '"params":{"x":[{"y":{"a":1,"\\u0061":2}}]}'),
    { ok: false, id: "r1", code: "invalid_params", close: false },
  ],
  [
    "duplicates in params and at the top level",
    req({ params: {} }).replace('"params":{}', '"params":{"a":1,"a":2},"id":"r2"'),
    { ok: false, id: null, code: "invalid_request", close: false },
  ],
  [
    "a duplicate in params with an invalid id",
    req({ id: "r 1", params: {} }).replace('"params":{}', '"params":{"a":1,"a":2}'),
    { ok: false, id: null, code: "invalid_request", close: false },
  ],
  [
    "a duplicate in params with an invalid method",
    req({ method: "bad method", params: {} }).replace('"params":{}', '"params":{"a":1,"a":2}'),
    { ok: false, id: "r1", code: "invalid_request", close: false },
  ],
  [
    "a duplicate in params with an unknown envelope field",
    req({ extra: 1, params: {} }).replace('"params":{}', '"params":{"a":1,"a":2}'),
    { ok: false, id: "r1", code: "invalid_request", close: false },
  ],
  [
    "a duplicate in params with a protocol mismatch",
    req({ version: 2, params: {} }).replace('"params":{}', '"params":{"a":1,"a":2}'),
    { ok: false, id: "r1", code: "protocol_mismatch", close: true },
  ],
  [
    "a duplicate in params with a syntax error",
    req({ params: {} }).replace('"params":{}', '"params":{"a":1,"a":2,}'),
    { ok: false, id: null, code: "invalid_request", close: false },
  ],
  [
    "a duplicate inside another member",
    req({ id: {} }).replace('"id":{}', '"id":{"a":1,"a":2}'),
    { ok: false, id: null, code: "invalid_request", close: false },
  ],
  ["an array", "[]", { ok: false, id: null, code: "invalid_request", close: false }],
  ["null", "null", { ok: false, id: null, code: "invalid_request", close: false }],
  ["a wrong protocol", req({ protocol: "other" }), {
    ok: false,
    id: "r1",
    code: "protocol_mismatch",
    close: true,
  }],
  ["version 2", req({ version: 2 }), {
    ok: false,
    id: "r1",
    code: "protocol_mismatch",
    close: true,
  }],
  ['version "1"', req({ version: "1" }), {
    ok: false,
    id: "r1",
    code: "protocol_mismatch",
    close: true,
  }],
  ["a mismatch with an invalid id", req({ version: 2, id: "r 1" }), {
    ok: false,
    id: null,
    code: "protocol_mismatch",
    close: true,
  }],
  ["a mismatch with an unknown field", req({ version: 2, extra: 1 }), {
    ok: false,
    id: "r1",
    code: "protocol_mismatch",
    close: true,
  }],
  ["a __proto__ field", req({}).slice(0, -1) + ',"__proto__":{}}', {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["a missing params", req({}, ["params"]), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["a missing protocol", req({}, ["protocol"]), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["a missing id", req({}, ["id"]), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["an unknown field", req({ extra: true }), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["an unknown field with an invalid id", req({ extra: true, id: 5 }), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["a 65-byte id", req({ id: ID65 }), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["an empty id", req({ id: "" }), { ok: false, id: null, code: "invalid_request", close: false }],
  ["a non-ASCII id", req({ id: "ré" }), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["a numeric id", req({ id: 1 }), { ok: false, id: null, code: "invalid_request", close: false }],
  ["a null id", req({ id: null }), { ok: false, id: null, code: "invalid_request", close: false }],
  ["an id with a space", req({ id: "r 1" }), {
    ok: false,
    id: null,
    code: "invalid_request",
    close: false,
  }],
  ["a method with a slash", req({ method: "a/b" }), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["a 65-byte method", req({ method: ID65 }), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["a numeric method", req({ method: 3 }), {
    ok: false,
    id: "r1",
    code: "invalid_request",
    close: false,
  }],
  ["params as an array", req({ params: [] }), {
    ok: false,
    id: "r1",
    code: "invalid_params",
    close: false,
  }],
  ["params as null", req({ params: null }), {
    ok: false,
    id: "r1",
    code: "invalid_params",
    close: false,
  }],
];

for (const [name, text, expected] of CASES) {
  Deno.test(`decodeRequest() answers ${name}`, () => {
    assert.deepEqual(decodeRequest(text), expected);
  });
}

Deno.test("decodeRequest() accepts the protocol's example request with CR", () => {
  const text =
    '{"protocol":"magi-code.local-agent","version":1,"id":"r1","method":"initialize","params":{"required_capabilities":["status","shutdown"]}}\r';
  const decoded = decodeRequest(text);
  assert.ok(decoded.ok);
  assert.deepEqual(decoded.params, { required_capabilities: ["status", "shutdown"] });
});

Deno.test("isWireId() follows the grammar", () => {
  for (const ok of ["a", "A-z_0.9", ID64, "client.tool.result"]) assert.equal(isWireId(ok), true);
  for (const bad of ["", ID65, "a b", "é", "a\n", "a/b", 1, null, undefined]) {
    assert.equal(isWireId(bad), false);
  }
});

const INSTANCE = "0f8fad5b-d9cb-469f-a165-70867728950e";

Deno.test("requestFrame(), responseFrame() and eventFrame() build exact envelopes", () => {
  assert.deepEqual(requestFrame("r1", "status", {}), BASE);
  assert.deepEqual(responseFrame(INSTANCE, 1, "r1", { result: { a: 1 } }), {
    protocol: "magi-code.local-agent",
    version: 1,
    type: "response",
    instance_id: INSTANCE,
    seq: 1,
    id: "r1",
    result: { a: 1 },
  });
  assert.deepEqual(responseFrame(INSTANCE, 2, null, { error: { code: "invalid_request" } }), {
    protocol: "magi-code.local-agent",
    version: 1,
    type: "response",
    instance_id: INSTANCE,
    seq: 2,
    id: null,
    error: { code: "invalid_request" },
  });
  assert.deepEqual(eventFrame(INSTANCE, 3, "diagnostic", { x: 1 }), {
    protocol: "magi-code.local-agent",
    version: 1,
    type: "event",
    instance_id: INSTANCE,
    seq: 3,
    event: "diagnostic",
    data: { x: 1 },
  });
});

Deno.test("decodeOutputFrame() round-trips built frames", () => {
  const result = decodeOutputFrame(
    JSON.stringify(responseFrame(INSTANCE, 1, "r1", { result: null })),
  );
  assert.deepEqual(result, {
    ok: true,
    frame: { type: "response", instanceId: INSTANCE, seq: 1, id: "r1", result: null },
  });
  const error = decodeOutputFrame(
    JSON.stringify(responseFrame(INSTANCE, 2, null, { error: { code: "busy" } })),
  );
  assert.deepEqual(error, {
    ok: true,
    frame: { type: "response", instanceId: INSTANCE, seq: 2, id: null, error: { code: "busy" } },
  });
  const event = decodeOutputFrame(JSON.stringify(eventFrame(INSTANCE, 3, "activity", { a: 1 })));
  assert.deepEqual(event, {
    ok: true,
    frame: { type: "event", instanceId: INSTANCE, seq: 3, event: "activity", data: { a: 1 } },
  });
});

const RESPONSE: Fields = {
  protocol: "magi-code.local-agent",
  version: 1,
  type: "response",
  instance_id: INSTANCE,
  seq: 1,
  id: "r1",
  result: {},
};
const EVENT: Fields = {
  protocol: "magi-code.local-agent",
  version: 1,
  type: "event",
  instance_id: INSTANCE,
  seq: 1,
  event: "activity",
  data: {},
};

function out(base: Fields, changes: Fields, drop: string[] = []): string {
  const value: Fields = { ...base, ...changes };
  for (const key of drop) delete value[key];
  return JSON.stringify(value);
}

const BAD_OUTPUT: [string, string][] = [
  ["invalid JSON", "{"],
  ["a duplicate key", out(RESPONSE, {}).slice(0, -1) + ',"seq":2}'],
  ["an array", "[]"],
  ["an unknown type", out(RESPONSE, { type: "notification" })],
  ["a wrong protocol", out(RESPONSE, { protocol: "x" })],
  ["version 2", out(RESPONSE, { version: 2 })],
  ["an uppercase instance_id", out(RESPONSE, { instance_id: INSTANCE.toUpperCase() })],
  ["a non-UUID instance_id", out(RESPONSE, { instance_id: "abc" })],
  ["seq 0", out(RESPONSE, { seq: 0 })],
  ["seq 1.5", out(RESPONSE, { seq: 1.5 })],
  ["seq as a string", out(RESPONSE, { seq: "1" })],
  ["a response with both result and error", out(RESPONSE, { error: { code: "busy" } })],
  ["a response with neither", out(RESPONSE, {}, ["result"])],
  ["a response without id", out(RESPONSE, {}, ["id"])],
  ["a response with an invalid id", out(RESPONSE, { id: 1 })],
  ["a response with an extra field", out(RESPONSE, { extra: 1 })],
  [
    "an error with an extra field",
    out(RESPONSE, { error: { code: "busy", message: "x" } }, [
      "result",
    ]),
  ],
  ["an error with a numeric code", out(RESPONSE, { error: { code: 1 } }, ["result"])],
  ["an error that is a string", out(RESPONSE, { error: "busy" }, ["result"])],
  ["an event with an extra field", out(EVENT, { id: "r1" })],
  ["an event without data", out(EVENT, {}, ["data"])],
  ["an event with array data", out(EVENT, { data: [] })],
  ["an event with an invalid name", out(EVENT, { event: "a b" })],
];

for (const [name, text] of BAD_OUTPUT) {
  Deno.test(`decodeOutputFrame() rejects ${name}`, () => {
    const decoded = decodeOutputFrame(text);
    assert.equal(decoded.ok, false);
    if (!decoded.ok) assert.equal(typeof decoded.reason, "string");
  });
}

Deno.test("decodeOutputFrame() reads a result part's response as the general decode does", () => {
  const recorded = (seq: number, id: string, complete: boolean) =>
    JSON.stringify(responseFrame(INSTANCE, seq, id, { result: { recorded: true, complete } }));
  // The same frame with a space after `{` (JSON whitespace) never takes the one-expression read.
  const general = (text: string) => decodeOutputFrame(`{ ${text.slice(1)}`);
  const texts = [
    recorded(1, "r1", false),
    recorded(2, "r2", true),
    recorded(Number.MAX_SAFE_INTEGER, "A.b_c-9".padEnd(64, "x"), false),
    // Not read by the expression; each must decode or fail exactly as in general.
    recorded(3, "r3", false).replace(INSTANCE, INSTANCE.toUpperCase()),
    recorded(4, "r4", false).replace('"seq":4', '"seq":0'),
    recorded(5, "r5", false).replace('"seq":5', '"seq":9007199254740993'),
    recorded(6, "r6", false).replace('"seq":6', '"seq":06'),
    recorded(7, "r".repeat(65), false),
    recorded(8, "r8", false).replace('"id":"r8"', '"id":"r 8"'),
    recorded(9, "r9", false).replace('"complete":false', '"complete":0'),
    recorded(10, "r10", false).replace('"version":1', '"version":2'),
    recorded(11, "r11", false).replace('"result"', '"extra":1,"result"'),
    recorded(12, "r12", false).replace('"id":"r12"', '"id":"r12","id":"r12"'),
    `${recorded(13, "r13", true)}\r`,
  ];
  for (const [index, text] of texts.entries()) {
    const decoded = decodeOutputFrame(text);
    assert.deepEqual(decoded, general(text), text);
    // The general decode leaves the result's shape to the method's check (`complete: 0`).
    assert.equal(decoded.ok, [0, 1, 2, 9, 13].includes(index), text);
  }
  assert.deepEqual(decodeOutputFrame(texts[1]!), {
    ok: true,
    frame: {
      type: "response",
      instanceId: INSTANCE,
      seq: 2,
      id: "r2",
      result: { recorded: true, complete: true },
    },
  });
});
