import assert from "node:assert/strict";
import {
  boundedString,
  compareUtf8,
  ErrorObjectSchema,
  jsonDepth,
  KnownErrorObjectSchema,
  SessionIdSchema,
  WireIdSchema,
} from "../../../src/protocol/schemas/common.ts";
import { utf8ByteLength } from "../../../src/protocol/utf8.ts";
import { assertAccepts, assertRejects } from "./_assert.ts";

Deno.test("utf8ByteLength() counts UTF-8 bytes per code point", () => {
  const table: [string, number][] = [
    ["", 0],
    ["a", 1],
    ["é", 2],
    ["€", 3],
    ["😀", 4],
    ["a€😀", 8],
    ["\ud800", 3], // lone surrogate encodes as U+FFFD
  ];
  for (const [text, bytes] of table) {
    assert.equal(utf8ByteLength(text), bytes, JSON.stringify(text));
    if (text.isWellFormed()) assert.equal(bytes, new TextEncoder().encode(text).length);
  }
});

Deno.test("compareUtf8() orders by UTF-8 bytes, not UTF-16 code units", () => {
  assert.ok(compareUtf8("a", "b") < 0);
  assert.ok(compareUtf8("ab", "a") > 0);
  assert.equal(compareUtf8("x", "x"), 0);
  // U+FF5E is below U+1F600 in UTF-8 byte order but above it in UTF-16 units.
  assert.ok(compareUtf8("\uff5e", "😀") < 0);
  assert.ok("\uff5e" > "😀");
});

Deno.test("boundedString() bounds UTF-8 bytes, well-formedness and controls", () => {
  const s = boundedString(4, { minBytes: 1, controls: "except_lf_tab" });
  assertAccepts(s, [["1 byte", "a"], ["4 bytes", "€a"], ["LF and TAB", "\n\t"]]);
  assertRejects(s, [
    ["empty", ""],
    ["5 bytes", "€ab"],
    ["emoji + 1", "😀a"],
    ["CR", "\r"],
    ["NUL", "\u0000"],
    ["DEL", "\u007f"],
    ["C1", "\u0085"],
    ["lone surrogate", "\ud800"],
    ["not a string", 4],
  ]);
  const all = boundedString(8, { controls: "all" });
  assertRejects(all, [["LF", "a\nb"], ["TAB", "\t"]]);
});

Deno.test("WireIdSchema accepts [A-Za-z0-9._-]{1,64} only", () => {
  assertAccepts(WireIdSchema, [["dotted", "a.b-c_D9"], ["64", "x".repeat(64)]]);
  assertRejects(WireIdSchema, [
    ["empty", ""],
    ["65", "x".repeat(65)],
    ["space", "a b"],
    ["slash", "a/b"],
    ["non-ASCII", "é"],
  ]);
});

Deno.test("SessionIdSchema accepts [A-Za-z0-9_-]{1,64} only", () => {
  assertAccepts(SessionIdSchema, [["plain", "saved-id_1"], ["64", "s".repeat(64)]]);
  assertRejects(SessionIdSchema, [["dot", "a.b"], ["65", "s".repeat(65)], ["empty", ""]]);
});

Deno.test("ErrorObjectSchema is exactly { code }; KnownErrorObjectSchema narrows", () => {
  assertAccepts(ErrorObjectSchema, [["known", { code: "busy" }], ["unknown", { code: "x_y" }]]);
  assertRejects(ErrorObjectSchema, [
    ["extra", { code: "busy", message: "no" }],
    ["missing", {}],
    ["number", { code: 1 }],
  ]);
  assertAccepts(KnownErrorObjectSchema, [["busy", { code: "busy" }], ["stale_call", {
    code: "stale_call",
  }]]);
  assertRejects(KnownErrorObjectSchema, [["unknown", { code: "x_y" }], ["case", { code: "Busy" }]]);
});

Deno.test("jsonDepth() counts containers and stops past its cap", () => {
  assert.equal(jsonDepth(1), 0);
  assert.equal(jsonDepth({}), 1);
  assert.equal(jsonDepth({ a: [{}] }), 3);
  let deep: unknown = {};
  for (let i = 0; i < 1000; i++) deep = [deep];
  assert.equal(jsonDepth(deep, 16), 17);
});
