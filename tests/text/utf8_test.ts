import assert from "node:assert/strict";
import { cutUtf8, splitUtf8, utf8PrefixLength } from "../../src/text/utf8.ts";
import { truncateText } from "../../src/text/bounded.ts";

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

// "é" 2 bytes, "€" 3, "😀" 4 (a surrogate pair), "\ud800" a lone surrogate (3, as U+FFFD).
const CUTS: [string, string, number, string, string][] = [
  // name, text, maxBytes, without ellipsis, with "…"
  ["empty text", "", 0, "", ""],
  ["an exact fit is kept whole", "abc", 3, "abc", "abc"],
  ["one byte over", "abcd", 3, "abc", "…"],
  ["ASCII cut", "abcdef", 5, "abcde", "ab…"],
  ["a 2-byte char that does not fit", "aé", 2, "a", "…"],
  ["a 2-byte char that fits exactly", "aéb", 3, "aé", "…"],
  ["a 3-byte char at the edge", "a€b", 4, "a€", "a…"],
  ["a 3-byte char one byte short", "a€b", 3, "a", "…"],
  ["a surrogate pair is never split", "a😀b", 4, "a", "a…"],
  ["a surrogate pair that fits exactly", "a😀b", 5, "a😀", "a…"],
  ["a pair after the ellipsis budget", "ab😀", 5, "ab", "ab…"],
  ["a lone high surrogate counts 3 bytes", "a\ud800b", 3, "a", "…"],
  ["a lone high surrogate that fits", "a\ud800b", 4, "a\ud800", "a…"],
  ["a lone low surrogate", "\udfffxyz", 4, "\udfffx", "…"],
  ["a budget below the first char", "€€", 2, "", "…"],
  ["a budget below the ellipsis", "abcdef", 2, "ab", "…"],
  ["a zero budget", "a", 0, "", "…"],
];

for (const [name, text, max, plain, withEllipsis] of CUTS) {
  Deno.test(`cutUtf8() cuts ${name}`, () => {
    assert.equal(cutUtf8(text, max), plain);
    assert.equal(cutUtf8(text, max, { ellipsis: "…" }), withEllipsis);
    // A cut without an ellipsis fits its bound and is a prefix of whole code points.
    assert.ok(bytes(plain.toWellFormed()) <= max);
    assert.ok(text.startsWith(plain));
    assert.equal(utf8PrefixLength(text, max), plain.length);
  });
}

Deno.test("cutUtf8() never leaves half a surrogate pair, on every bound", () => {
  const text = "a😀é😀€\ud800😀";
  for (let max = 0; max <= bytes(text.toWellFormed()) + 1; max++) {
    const cut = cutUtf8(text, max);
    assert.ok(bytes(cut.toWellFormed()) <= max, `max ${max}`);
    const last = cut.charCodeAt(cut.length - 1);
    // The text's only lone surrogate is its \ud800; any other high surrogate at the end is half a pair.
    assert.ok(!(last >= 0xd800 && last <= 0xdbff) || cut.endsWith("€\ud800"), `max ${max}`);
  }
});

Deno.test("utf8PrefixLength() is 0 for a negative budget and the length for a large one", () => {
  assert.equal(utf8PrefixLength("abc", -1), 0);
  assert.equal(utf8PrefixLength("a😀", 100), 3);
  assert.equal(utf8PrefixLength("", 0), 0);
});

Deno.test("truncateText() makes the text well formed, then cuts with … inside the bound", () => {
  assert.equal(truncateText("ok", 2), "ok");
  assert.equal(truncateText("a\ud800", 4), "a\ufffd");
  assert.equal(truncateText("a\ud800b", 4), "a…");
  assert.equal(truncateText("abcdef", 5), "ab…");
  assert.equal(truncateText("€€€", 6), "€…");
  assert.equal(truncateText("x", 0), "…");
});

const SPLITS: [string, string, number, string[]][] = [
  ["empty text as one empty chunk", "", 4, [""]],
  ["ASCII at the limit", "abcd", 4, ["abcd"]],
  ["ASCII past the limit", "abcde", 4, ["abcd", "e"]],
  ["never inside a code point", "aé€😀", 4, ["aé", "€", "😀"]],
  ["a surrogate pair whole", "abc😀", 4, ["abc", "😀"]],
  ["lone surrogates as 3 bytes each", "\udfff\ud800a", 4, ["\udfff", "\ud800a"]],
  ["exact fits back to back", "€€€", 6, ["€€", "€"]],
];

for (const [name, text, max, expected] of SPLITS) {
  Deno.test(`splitUtf8() splits ${name}`, () => {
    const chunks = splitUtf8(text, max);
    assert.deepEqual(chunks, expected);
    assert.ok(chunks.every((c) => bytes(c.toWellFormed()) <= max));
  });
}

Deno.test("splitUtf8() refuses a chunk size below 4 bytes", () => {
  assert.throws(() => splitUtf8("a", 3), {
    name: "RangeError",
    message: "Chunk size must be at least 4 bytes: 3",
  });
});

/** The chunks of a greedy split, one code point at a time (the definition splitUtf8 meets). */
function greedy(text: string, max: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const char of text) {
    if (bytes((current + char).toWellFormed()) > max) {
      chunks.push(current);
      current = "";
    }
    current += char;
  }
  if (current !== "" || chunks.length === 0) chunks.push(current);
  return chunks;
}

/** The longest prefix of whole code points within `max` bytes, one code point at a time. */
function greedyCut(text: string, max: number): string {
  let out = "";
  for (const char of text) {
    if (bytes((out + char).toWellFormed()) > max) break;
    out += char;
  }
  return out;
}

Deno.test("splitUtf8() and cutUtf8() match a greedy walk on random text with 1-4 byte code points", () => {
  // Lone surrogates too (3 bytes each, as U+FFFD): the model's text is not always well formed.
  const alphabet = ["a", "~", "é", "ß", "€", "中", "😀", "𝄞", "\ud800", "\udfff", "\n"];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let round = 0; round < 300; round++) {
    const length = Math.floor(random() * 60);
    const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)])
      .join("");
    const max = 4 + Math.floor(random() * 12);
    const chunks = splitUtf8(text, max);
    assert.deepEqual(chunks, greedy(text, max), JSON.stringify({ text, max }));
    assert.equal(chunks.join(""), text);
    assert.equal(cutUtf8(text, max), greedyCut(text, max), JSON.stringify({ text, max }));
  }
});
