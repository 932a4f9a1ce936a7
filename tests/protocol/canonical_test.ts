import assert from "node:assert/strict";
import { canonicalJson, sha256Hex, toolIdOf } from "../../src/protocol/canonical.ts";
import type { JsonValue } from "../../src/protocol/json.ts";

Deno.test("canonicalJson() sorts keys by UTF-16 code units (RFC 8785 §3.2.3)", () => {
  const input = JSON.parse(
    '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh",' +
      '"1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control",' +
      '"\\u00f6":"Latin Small Letter O With Diaeresis"}',
  );
  assert.equal(
    canonicalJson(input),
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
      '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
      '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  );
});

Deno.test("canonicalJson() orders a non-BMP key before U+FB33 (code units, not code points)", () => {
  assert.equal(canonicalJson({ "\ufb33": 1, "\u{1f600}": 2 }), '{"\u{1f600}":2,"\ufb33":1}');
});

Deno.test("canonicalJson() matches the RFC 8785 §3.2.2 example", () => {
  const input = JSON.parse(
    '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],' +
      '"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
      '"literals":[null,true,false]}',
  );
  assert.equal(
    canonicalJson(input),
    '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
      '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
  );
});

const NUMBERS: [number, string][] = [
  [0, "0"],
  [-0, "0"],
  [0.1, "0.1"],
  [1e21, "1e+21"],
  [1e20, "100000000000000000000"],
  [-1.5e-7, "-1.5e-7"],
  [5e-324, "5e-324"],
  [Number.MAX_SAFE_INTEGER, "9007199254740991"],
];

for (const [value, text] of NUMBERS) {
  Deno.test(`canonicalJson() writes ${Object.is(value, -0) ? "-0" : value} as ${text}`, () => {
    assert.equal(canonicalJson(value), text);
  });
}

Deno.test("canonicalJson() nests without whitespace", () => {
  assert.equal(canonicalJson({ b: [{ d: 1, c: null }], a: {} }), '{"a":{},"b":[{"c":null,"d":1}]}');
});

Deno.test("canonicalJson() rejects values without a JSON form", () => {
  assert.throws(() => canonicalJson(Number.NaN), RangeError);
  assert.throws(() => canonicalJson(Infinity), RangeError);
  assert.throws(() => canonicalJson({ a: undefined } as unknown as JsonValue), TypeError);
});

Deno.test("sha256Hex() hashes UTF-8", () => {
  assert.equal(
    sha256Hex("abc"),
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
  );
  assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
});

Deno.test("toolIdOf() ignores key order and whitespace", () => {
  const a = toolIdOf({ name: "t", input_schema: { type: "object", properties: {} } });
  const b = toolIdOf(
    JSON.parse('{ "input_schema": {"properties":{}, "type":"object"}, "name":"t" }'),
  );
  assert.equal(a, b);
  assert.equal(a, sha256Hex('{"input_schema":{"properties":{},"type":"object"},"name":"t"}'));
  assert.notEqual(a, toolIdOf({ name: "u", input_schema: { type: "object", properties: {} } }));
});
