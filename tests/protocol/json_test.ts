import assert from "node:assert/strict";
import { duplicateKeyPaths, type JsonPath, parseStrictJson } from "../../src/protocol/json.ts";

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
  ["colons in keys and values", '{"a:b":"c:d:e","x":["::",{"y:":":"}]}', {
    "a:b": "c:d:e",
    x: ["::", { "y:": ":" }],
  }],
  ["an escaped colon in a value", '{"a":"\\u003a","b":1}', { a: ":", b: 1 }],
  ["a colon as a top-level string", '"a:b"', "a:b"],
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

const REJECTED: [
  string,
  string,
  "invalid_frame" | "invalid_request",
  "depth" | "syntax" | "duplicate_key",
][] = [
  ["33 nested arrays", nested(33), "invalid_frame", "depth"],
  ["33 nested objects", nestedObjects(33), "invalid_frame", "depth"],
  [
    "33 levels of mixed containers",
    '[{"a":'.repeat(16) + "[]" + "}]".repeat(16),
    "invalid_frame",
    "depth",
  ],
  ["deep nesting with a syntax error", nested(40, "[", "", "x"), "invalid_frame", "depth"],
  ["a duplicate key at depth 1", '{"a":1,"a":2}', "invalid_request", "duplicate_key"],
  [
    "a duplicate key deep inside",
    '{"x":[{"y":{"a":1,"b":2,"a":3}}]}',
    "invalid_request",
    "duplicate_key",
  ],
  ["a duplicate key via a \\u escape", '{"a":1,"\\u0061":2}', "invalid_request", "duplicate_key"],
  [
    "a duplicate key via escapes on both",
    '{"\\u0061":1,"\\u0061":2}',
    "invalid_request",
    "duplicate_key",
  ],
  ["a duplicate key via a \\/ escape", '{"/":1,"\\/":2}', "invalid_request", "duplicate_key"],
  [
    "a duplicate among many keys",
    JSON.stringify(Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`k${i}`, i]),
    )).replace("}", ',"k3":0}'),
    "invalid_request",
    "duplicate_key",
  ],
  [
    "a duplicate __proto__ key",
    '{"__proto__":1,"__proto__":2}',
    "invalid_request",
    "duplicate_key",
  ],
  [
    "a duplicate key after an escaped backslash",
    '{"a\\\\":1,"a\\\\":2}',
    "invalid_request",
    "duplicate_key",
  ],
  ["a duplicate empty key", '{"":1,"":2}', "invalid_request", "duplicate_key"],
  ["a duplicate key with colons", '{"a:b":1,"a:b":2}', "invalid_request", "duplicate_key"],
  [
    "a duplicate whose dropped value has colons",
    '{"a":"::","a":1}',
    "invalid_request",
    "duplicate_key",
  ],
  [
    "a duplicate masked by an escaped colon",
    '{"a":1,"a":"\\u003a"}',
    "invalid_request",
    "duplicate_key",
  ],
  [
    "a duplicate masked by escaped colons in a key",
    '{"\\u003a":{"a":1,"a":2}}',
    "invalid_request",
    "duplicate_key",
  ],
  ["100,000 nested arrays", nested(100_000), "invalid_frame", "depth"],
  ["two values", '{"a":1} {"b":2}', "invalid_request", "syntax"],
  ["an empty text", "", "invalid_request", "syntax"],
  ["only whitespace", " \r ", "invalid_request", "syntax"],
  ["a trailing comma", '{"a":1,}', "invalid_request", "syntax"],
  ["an unterminated string", '{"a":"x}', "invalid_request", "syntax"],
  ["single quotes", "{'a':1}", "invalid_request", "syntax"],
  ["a byte order mark", '\ufeff{"a":1}', "invalid_request", "syntax"],
  ["NaN", "NaN", "invalid_request", "syntax"],
  ["an unescaped control character", '"a\u0001"', "invalid_request", "syntax"],
  ["an invalid escape", '"\\x41"', "invalid_request", "syntax"],
  ["unbalanced closers", "]]]", "invalid_request", "syntax"],
];

for (const [name, text, code, reason] of REJECTED) {
  Deno.test(`parseStrictJson() rejects ${name} with ${code} (${reason})`, () => {
    assert.deepEqual(parseStrictJson(text), { ok: false, code, reason });
  });
}

Deno.test("parseStrictJson() counts own keys only when Object.prototype has an enumerable key", () => {
  const proto = Object.prototype as Record<string, unknown>;
  proto["polluted"] = 1;
  try {
    assert.deepEqual(parseStrictJson('{"a":{"b":1}}'), { ok: true, value: { a: { b: 1 } } });
    assert.equal(parseStrictJson('{"a":1,"a":2}').ok, false);
  } finally {
    delete proto["polluted"];
  }
});

Deno.test("parseStrictJson() honours a custom maxDepth", () => {
  assert.equal(parseStrictJson(nested(3), 3).ok, true);
  assert.deepEqual(parseStrictJson(nested(4), 3), {
    ok: false,
    code: "invalid_frame",
    reason: "depth",
  });
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

const DUPLICATE_PATHS: [string, string, JsonPath[]][] = [
  ["a top-level duplicate", '{"a":1,"b":2,"a":3}', [["a"]]],
  ["a duplicate in a nested object", '{"p":{"x":1,"x":2}}', [["p", "x"]]],
  ["a duplicate inside an array", '{"p":[1,{"k":[],"k":{}}]}', [["p", 1, "k"]]],
  ["a duplicate via escapes", '{"p":{"\\u0061":1, "a" :2}}', [["p", "a"]]],
  [
    "several duplicates in text order",
    ' {"a":{"z":1,"z":2},"b":[{"y":1,"y":2}],"a":0}\r',
    [["a", "z"], ["b", 0, "y"], ["a"]],
  ],
  ["keys with brackets and escaped quotes", '{"[\\"{":1,"[\\"{":2}', [['["{']]],
  ["no duplicate", '{"a":{"a":1},"b":[{"a":1},{"a":2}]}', []],
];

for (const [name, text, expected] of DUPLICATE_PATHS) {
  Deno.test(`duplicateKeyPaths() locates ${name}`, () => {
    assert.deepEqual(duplicateKeyPaths(text), expected);
  });
}

Deno.test("duplicateKeyPaths() never throws on random text", () => {
  let seed = 11;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const alphabet = '{}[]",:\\ u0a1tfn-.eE\r\n';
  for (let n = 0; n < 3000; n++) {
    let text = "";
    const len = Math.floor(rand() * 40);
    for (let i = 0; i < len; i++) text += alphabet[Math.floor(rand() * alphabet.length)];
    assert.ok(Array.isArray(duplicateKeyPaths(text)), text);
  }
  assert.deepEqual(duplicateKeyPaths("[".repeat(100_000)), []);
});

Deno.test("parseStrictJson() finds exactly the duplicates duplicateKeyPaths() locates (random objects)", () => {
  let seed = 3;
  const rand = (n: number) =>
    Math.floor(((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * n);
  const atoms = ['"a"', '"a:"', '":"', '"\\u003a"', '"b"', '"\\u0061"', '"x:\\\\u"'];
  const value = (depth: number): string => {
    const kind = depth > 3 ? 0 : rand(3);
    if (kind === 0) return [atoms[rand(atoms.length)]!, "1", "null"][rand(3)]!;
    const size = rand(4);
    const items = Array.from(
      { length: size },
      () => kind === 1 ? value(depth + 1) : `${atoms[rand(atoms.length)]} : ${value(depth + 1)}`,
    );
    return kind === 1 ? `[${items.join(",")}]` : `{${items.join(",")}}`;
  };
  let duplicates = 0;
  for (let n = 0; n < 3000; n++) {
    const text = value(0);
    const expected = duplicateKeyPaths(text).length === 0;
    if (!expected) duplicates++;
    assert.equal(parseStrictJson(text).ok, expected, text);
  }
  assert.ok(duplicates > 100, "the generator makes duplicates");
});
