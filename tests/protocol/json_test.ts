import assert from "node:assert/strict";
import { parseStrictJson } from "../../src/protocol/json.ts";

function nested(levels: number, open = "[", close = "]", inner = ""): string {
  return open.repeat(levels) + inner + close.repeat(levels);
}

function nestedObjects(levels: number): string {
  return '{"a":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
}

const ACCEPTED: [string, string, unknown][] = [
  ["an object", '{"a":1,"b":[true,false,null]}', { a: 1, b: [true, false, null] }],
  ["a bare string", '"x"', "x"],
  ["a number", "-1.5e3", -1500],
  ["whitespace incl. CR around the value", ' \t\r\n{"a":1}\r', { a: 1 }],
  ["the same key in sibling objects", '[{"a":1},{"a":2}]', [{ a: 1 }, { a: 2 }]],
  ["the same key in parent and child", '{"a":{"a":{"a":1}}}', { a: { a: { a: 1 } } }],
  ["a key that equals a value", '{"a":"b","b":"a"}', { a: "b", b: "a" }],
  ["escaped quotes inside a key", '{"a\\"":1,"a":2}', { 'a"': 1, a: 2 }],
  ["backslash at the end of a string", '{"a\\\\":1,"a":2}', { "a\\": 1, a: 2 }],
  ["a lone surrogate escape", '{"s":"\\ud800"}', { s: "\ud800" }],
  ["32 nested arrays", nested(32), JSON.parse(nested(32))],
  ["32 nested objects", nestedObjects(32), JSON.parse(nestedObjects(32))],
  ["a single __proto__ key", '{"__proto__":{"a":1}}', JSON.parse('{"__proto__":{"a":1}}')],
  ["brackets inside strings", '{"a":"[[[[{{{{"}', { a: "[[[[{{{{" }],
  [
    "many distinct keys",
    JSON.stringify(Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${i}`, i]),
    )),
    Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])),
  ],
];

for (const [name, text, expected] of ACCEPTED) {
  Deno.test(`parseStrictJson() accepts ${name}`, () => {
    const result = parseStrictJson(text);
    assert.deepEqual(result, { ok: true, value: expected });
  });
}

const REJECTED: [string, string, "invalid_frame" | "invalid_request"][] = [
  ["33 nested arrays", nested(33), "invalid_frame"],
  ["33 nested objects", nestedObjects(33), "invalid_frame"],
  ["33 levels of mixed containers", '[{"a":'.repeat(16) + "[]" + "}]".repeat(16), "invalid_frame"],
  ["deep nesting with a syntax error", nested(40, "[", "", "x"), "invalid_frame"],
  ["a duplicate key at depth 1", '{"a":1,"a":2}', "invalid_request"],
  ["a duplicate key deep inside", '{"x":[{"y":{"a":1,"b":2,"a":3}}]}', "invalid_request"],
  ["a duplicate key via a \\u escape", '{"a":1,"\\u0061":2}', "invalid_request"],
  ["a duplicate key via escapes on both", '{"\\u0061":1,"\\u0061":2}', "invalid_request"],
  ["a duplicate key via a \\/ escape", '{"/":1,"\\/":2}', "invalid_request"],
  [
    "a duplicate among many keys",
    JSON.stringify(Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${i}`, i]),
    )).replace("}", ',"k3":0}'),
    "invalid_request",
  ],
  ["a duplicate __proto__ key", '{"__proto__":1,"__proto__":2}', "invalid_request"],
  ["a duplicate key after an escaped backslash", '{"a\\\\":1,"a\\\\":2}', "invalid_request"],
  ["a duplicate empty key", '{"":1,"":2}', "invalid_request"],
  ["two values", '{"a":1} {"b":2}', "invalid_request"],
  ["an empty text", "", "invalid_request"],
  ["only whitespace", " \r ", "invalid_request"],
  ["a trailing comma", '{"a":1,}', "invalid_request"],
  ["an unterminated string", '{"a":"x}', "invalid_request"],
  ["single quotes", "{'a':1}", "invalid_request"],
  ["a byte order mark", '\ufeff{"a":1}', "invalid_request"],
  ["NaN", "NaN", "invalid_request"],
  ["an unescaped control character", '"a\u0001"', "invalid_request"],
  ["an invalid escape", '"\\x41"', "invalid_request"],
  ["unbalanced closers", "]]]", "invalid_request"],
];

for (const [name, text, code] of REJECTED) {
  Deno.test(`parseStrictJson() rejects ${name} with ${code}`, () => {
    assert.deepEqual(parseStrictJson(text), { ok: false, code });
  });
}

Deno.test("parseStrictJson() honours a custom maxDepth", () => {
  assert.equal(parseStrictJson(nested(3), 3).ok, true);
  assert.deepEqual(parseStrictJson(nested(4), 3), { ok: false, code: "invalid_frame" });
});

Deno.test("parseStrictJson() never throws on random text", () => {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = '{}[]",:\\ u0a1tfn-.eE\r\n';
  for (let n = 0; n < 3000; n++) {
    let text = "";
    const len = Math.floor(rand() * 40);
    for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
    const result = parseStrictJson(text);
    let plain: unknown;
    let plainOk = true;
    try {
      plain = JSON.parse(text);
    } catch {
      plainOk = false;
    }
    if (result.ok) {
      assert.ok(plainOk, text);
      assert.deepEqual(result.value, plain);
    }
  }
});
