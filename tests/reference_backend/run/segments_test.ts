import assert from "node:assert/strict";
import { ContentBudget, splitUtf8 } from "../../../src/reference_backend/run/segments.ts";
import { boundSummary } from "../../../src/reference_backend/run/bounded_text.ts";

const bytes = (s: string) => new TextEncoder().encode(s).byteLength;

const SPLITS: [string, string, number, string[]][] = [
  ["empty text as one empty chunk", "", 4, [""]],
  ["ASCII at the limit", "abcd", 4, ["abcd"]],
  ["ASCII past the limit", "abcde", 4, ["abcd", "e"]],
  ["never inside a code point", "aé€😀", 4, ["aé", "€", "😀"]],
];
/** The chunks of a greedy split, one code point at a time (the definition splitUtf8 meets). */
function greedy(text: string, max: number): string[] {
  const chunks: string[] = [];
  let current = "";
  for (const char of text) {
    if (bytes(current + char) > max) {
      chunks.push(current);
      current = "";
    }
    current += char;
  }
  if (current !== "" || chunks.length === 0) chunks.push(current);
  return chunks;
}

Deno.test("splitUtf8() matches a greedy split on random text with 1-4 byte code points", () => {
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
  }
});

for (const [name, text, max, expected] of SPLITS) {
  Deno.test(`splitUtf8() splits ${name}`, () => {
    const chunks = splitUtf8(text, max);
    assert.deepEqual(chunks, expected);
    assert.ok(chunks.every((c) => bytes(c) <= max));
  });
}

Deno.test("ContentBudget admits at most 512 segments", () => {
  const budget = new ContentBudget();
  for (let i = 0; i < 512; i++) assert.equal(budget.admit("x"), true);
  assert.equal(budget.admit("x"), false);
});

Deno.test("ContentBudget admits at most 8 MiB of text", () => {
  const budget = new ContentBudget();
  assert.equal(budget.admit("x".repeat(8 * 1024 * 1024)), true);
  assert.equal(budget.admit("y"), false);
});

Deno.test("boundSummary() removes controls and cuts at 1024 bytes on a code point", () => {
  assert.equal(boundSummary("a\nb"), "a b");
  const cut = boundSummary("€".repeat(400));
  assert.equal(bytes(cut), 1023);
});
