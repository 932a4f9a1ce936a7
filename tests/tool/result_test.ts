import assert from "node:assert/strict";
import { resultToText, splitResultText, splitSizedResultText } from "../../src/tool/result.ts";
import { utf8ByteLength } from "../../src/protocol/utf8.ts";
import { hasC0 } from "../../src/text/control.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;
/** JSON-escaped length of `text` without the quotes. */
const escaped = (text: string) => utf8(JSON.stringify(text)) - 2;

Deno.test("resultToText() keeps strings and serializes JSON values", () => {
  const cases: [unknown, string][] = [
    ["plain text", "plain text"],
    ["", ""],
    [undefined, ""],
    [null, "null"],
    [42, "42"],
    [true, "true"],
    [{ a: [1, "x"], b: null }, '{"a":[1,"x"],"b":null}'],
    [[1, 2], "[1,2]"],
    [{ when: new Date(0) }, '{"when":"1970-01-01T00:00:00.000Z"}'],
    ["lone \ud800 surrogate", "lone \ufffd surrogate"],
  ];
  for (const [value, text] of cases) assert.equal(resultToText(value), text);
});

Deno.test("resultToText() rejects values without a faithful JSON form", () => {
  const cycle: Record<string, unknown> = {};
  cycle["self"] = cycle;
  const cases: [unknown, RegExp][] = [
    [10n, /^Tool result is not JSON-serializable: a bigint$/],
    [{ n: 1n }, /^Tool result is not JSON-serializable: a bigint at key "n"$/],
    [() => 1, /a function/],
    [{ f: () => 1 }, /a function at key "f"/],
    [Symbol("s"), /a symbol/],
    [{ x: NaN }, /NaN at key "x"/],
    [[Infinity], /Infinity at key "0"/],
    [new Map([[1, 2]]), /a Map/],
    [{ s: new Set() }, /a Set at key "s"/],
    [cycle, /^Tool result is not JSON-serializable: .*circular/i],
  ];
  for (const [value, message] of cases) {
    assert.throws(() => resultToText(value), (error: unknown) => {
      assert.ok(error instanceof TypeError);
      assert.match(error.message, message);
      return true;
    });
  }
});

function check(
  text: string,
  options: { partBytes: number; frameBytes: number; envelopeBytes: number },
) {
  const parts = splitResultText(text, options);
  assert.equal(parts.join(""), text, "parts rejoin to the text");
  // The single pass sizes the text as utf8ByteLength does, with the same parts.
  const sized = splitSizedResultText(text, options);
  assert.deepEqual(sized.parts, parts);
  assert.equal(sized.bytes, utf8ByteLength(text), "bytes from the same pass");
  for (const part of parts) {
    assert.ok(utf8(part) <= options.partBytes, `part of ${utf8(part)} bytes`);
    assert.ok(escaped(part) + options.envelopeBytes <= options.frameBytes, "part fits the frame");
    assert.ok(part.isWellFormed() || !text.isWellFormed(), "no surrogate pair is split");
  }
  if (text !== "") { for (const part of parts) assert.notEqual(part, ""); }
  return parts;
}

const wide = { frameBytes: 1_000_000, envelopeBytes: 0 };
const table: [
  string,
  string,
  { partBytes: number; frameBytes: number; envelopeBytes: number },
  string[],
][] = [
  ["empty text", "", { partBytes: 4, ...wide }, [""]],
  ["ASCII under the bound", "abc", { partBytes: 4, ...wide }, ["abc"]],
  ["ASCII exactly at the bound", "abcd", { partBytes: 4, ...wide }, ["abcd"]],
  ["ASCII one over", "abcde", { partBytes: 4, ...wide }, ["abcd", "e"]],
  ["ASCII exact multiple", "abcdefgh", { partBytes: 4, ...wide }, ["abcd", "efgh"]],
  ["2-byte chars across a cut", "aéé", { partBytes: 4, ...wide }, ["aé", "é"]],
  ["3-byte chars", "€€€", { partBytes: 7, ...wide }, ["€€", "€"]],
  ["emoji at the boundary", "abc😀", { partBytes: 4, ...wide }, ["abc", "😀"]],
  ["emoji exactly filling", "😀😀", { partBytes: 8, ...wide }, ["😀😀"]],
  ["emoji one byte short", "😀😀", { partBytes: 7, ...wide }, ["😀", "😀"]],
  ["quotes double in the frame", '""""', { partBytes: 100, frameBytes: 10, envelopeBytes: 4 }, [
    '"""',
    '"',
  ]],
  ["control chars escape to 6 bytes", "\u0001\u0001\u0001", {
    partBytes: 100,
    frameBytes: 20,
    envelopeBytes: 8,
  }, ["\u0001\u0001", "\u0001"]],
  ["newlines escape to 2 bytes", "\n\n\n\n", { partBytes: 100, frameBytes: 10, envelopeBytes: 4 }, [
    "\n\n\n",
    "\n",
  ]],
  ["backslashes at the exact frame bound", "\\\\\\", {
    partBytes: 100,
    frameBytes: 6,
    envelopeBytes: 0,
  }, ["\\\\\\"]],
  ["a lone surrogate counts 6 escaped bytes", "a\ud800b", {
    partBytes: 100,
    frameBytes: 7,
    envelopeBytes: 0,
  }, ["a\ud800", "b"]],
];

for (const [what, text, options, expected] of table) {
  Deno.test(`splitResultText() splits ${what}`, () => {
    assert.deepEqual(check(text, options), expected);
  });
}

Deno.test("splitResultText() keeps every part under both bounds for escaping-heavy text", () => {
  const text = '"\\\u0000\n😀é€x'.repeat(5_000);
  const options = { partBytes: 16_384, frameBytes: 65_536, envelopeBytes: 300 };
  const parts = check(text, options);
  // Escaping (up to 6x for NUL) makes the frame, not partBytes, the binding bound.
  assert.ok(parts.length > utf8(text) / 16_384);
});

Deno.test("splitResultText() never splits a surrogate pair in long emoji text", () => {
  const text = "😀".repeat(10_000);
  const parts = check(text, { partBytes: 16_383, frameBytes: 65_536, envelopeBytes: 100 });
  for (const part of parts) assert.equal(utf8(part) % 4, 0);
});

Deno.test("splitResultText() rejects bounds that cannot hold one character", () => {
  assert.throws(
    () => splitResultText("a", { partBytes: 3, frameBytes: 100, envelopeBytes: 0 }),
    RangeError,
  );
  assert.throws(
    () => splitResultText("a", { partBytes: 100, frameBytes: 105, envelopeBytes: 100 }),
    RangeError,
  );
});

/** The character-by-character split (before plain runs were taken at once): the reference. */
function referenceSplit(text: string, partBytes: number, escapedBudget: number): string[] {
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  let escaped = 0;
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    let width = 1;
    let size = 3;
    let escapedSize = 3;
    if (unit < 0x80) {
      size = 1;
      escapedSize = JSON.stringify(text[i]).length - 2;
    } else if (unit < 0x800) size = escapedSize = 2;
    else if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        width = 2;
        size = escapedSize = 4;
      } else escapedSize = 6;
    }
    if (bytes + size > partBytes || escaped + escapedSize > escapedBudget) {
      parts.push(text.slice(start, i));
      start = i;
      bytes = escaped = 0;
    }
    bytes += size;
    escaped += escapedSize;
    i += width;
  }
  parts.push(text.slice(start));
  return parts;
}

Deno.test("splitResultText() cuts random mixed text exactly where the per-character rule does", () => {
  const alphabet = [
    "a",
    "b",
    " ",
    "~",
    '"',
    "\\",
    "\n",
    "\u0001",
    "é",
    "€",
    "😀",
    "\ud800",
    "\udc00",
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 300; round++) {
    const plainRun = random() < 0.5 ? "x".repeat(Math.floor(random() * 60)) : "";
    let text = "";
    for (let n = Math.floor(random() * 80); n > 0; n--) {
      text += random() < 0.2 ? plainRun : alphabet[Math.floor(random() * alphabet.length)];
    }
    const partBytes = 4 + Math.floor(random() * 20);
    const budget = 6 + Math.floor(random() * 20);
    assert.deepEqual(
      splitResultText(text, { partBytes, frameBytes: 100 + budget, envelopeBytes: 100 }),
      referenceSplit(text, partBytes, budget),
      JSON.stringify({ text, partBytes, budget }),
    );
  }
});

Deno.test("splitResultText() splits a 1 MiB ASCII text into parts of exactly partBytes", () => {
  const text = "abcdefgh".repeat(131_072);
  const parts = splitResultText(text, {
    partBytes: 16_384,
    frameBytes: 1_048_576,
    envelopeBytes: 500,
  });
  assert.equal(parts.length, 64);
  assert.ok(parts.every((part) => part.length === 16_384));
  assert.equal(parts.join(""), text);
});

Deno.test("splitResultText() cuts ASCII text with escapes where the per-character rule does", () => {
  // The ASCII fast path: where the frame budget holds 2 (no control escaped as \u00XX in the
  // text) or 6 bytes per part byte, only the part bound cuts; the rounds also cover budgets and
  // texts where it does not apply, and texts long enough to span several encoding chunks.
  const short = ["a", " ", "~", '"', "\\", "\n", "\t", "\u007f"];
  const long = [...short, "\u0001", "\u000b", "\u001f"];
  let seed = 11;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 60; round++) {
    const alphabet = round % 2 === 0 ? short : long;
    const length = round < 40 ? Math.floor(random() * 200) : 65_536 + Math.floor(random() * 70_000);
    let text = "";
    for (let n = 0; n < length; n++) text += alphabet[Math.floor(random() * alphabet.length)];
    const partBytes = 4 + Math.floor(random() * 5_000);
    const budget = Math.max(6, Math.floor(partBytes * (1 + random() * 6)));
    const split = splitSizedResultText(text, {
      partBytes,
      frameBytes: 100 + budget,
      envelopeBytes: 100,
    });
    assert.deepEqual(split.parts, referenceSplit(text, partBytes, budget), `round ${round}`);
    assert.equal(split.bytes, text.length);
    // Plain ASCII is known per part on the ASCII path: exactly the parts without a C0 control.
    if (split.plainAscii !== undefined) {
      assert.deepEqual(split.plainAscii, split.parts.map((part) => !hasC0(part)));
    }
  }
});

Deno.test("splitSizedResultText() tells which parts are plain ASCII, at every part edge", () => {
  const options = { partBytes: 8, frameBytes: 100, envelopeBytes: 60 }; // 40 bytes: 5 a byte
  const base = "abcdefgh".repeat(4);
  const cases: [string, boolean[] | undefined][] = [
    [base, [true, true, true, true]],
    ["", [true]],
    ["x", [true]],
    ['"quoted" and \\ and \x7f' + base, [true, true, true, true, true, true, true]],
    ["\n" + base.slice(1), [false, true, true, true]],
    [base.slice(0, 7) + "\t" + base.slice(8), [false, true, true, true]],
    [base.slice(0, 8) + "\r" + base.slice(9), [true, false, true, true]],
    [base.slice(0, 31) + "\b", [true, true, true, false]],
    [base + "\f", [true, true, true, true, false]],
    // A control JSON writes as \u00XX: six bytes a character do not fit 40, so the per-character
    // path splits, and nothing is known.
    [base.slice(0, 20) + "\u0001" + base.slice(21), undefined],
    // Not ASCII: the per-character path.
    ["é" + base, undefined],
  ];
  for (const [text, plain] of cases) {
    const split = splitSizedResultText(text, options);
    assert.deepEqual(split.plainAscii, plain, JSON.stringify(text));
    assert.equal(split.parts.join(""), text);
  }
  // Where the budget holds six bytes a character, a \u00XX control only makes its part not plain.
  const wideSplit = splitSizedResultText(base.slice(0, 20) + "\u0001" + base.slice(21), {
    partBytes: 8,
    frameBytes: 200,
    envelopeBytes: 100,
  });
  assert.deepEqual(wideSplit.plainAscii, [true, true, false, true]);
});

Deno.test("splitResultText() takes the careful path for non-ASCII text past an encoding chunk", () => {
  // One "é" after the first 64 KiB chunk: parts are cut by UTF-8 bytes, not by characters.
  const text = "a".repeat(70_000) + "é" + "b".repeat(10);
  const split = splitSizedResultText(text, {
    partBytes: 16_384,
    frameBytes: 1_048_576,
    envelopeBytes: 500,
  });
  assert.equal(split.bytes, 70_012);
  assert.deepEqual(split.parts, referenceSplit(text, 16_384, 1_048_576 - 500));
  assert.ok(split.parts.every((part) => utf8(part) <= 16_384));
});
