import assert from "node:assert/strict";
import textStats from "../../tools/text_stats.ts";
import { runTool } from "./_context.ts";

Deno.test("text_stats counts lines, words, characters and bytes", async () => {
  const cases: [string, { lines: number; words: number; chars: number; bytes: number }][] = [
    ["", { lines: 0, words: 0, chars: 0, bytes: 0 }],
    ["one", { lines: 1, words: 1, chars: 3, bytes: 3 }],
    ["one\n", { lines: 1, words: 1, chars: 4, bytes: 4 }],
    ["a b\nc\n\nd", { lines: 4, words: 4, chars: 8, bytes: 8 }],
    ["héllo 😀", { lines: 1, words: 2, chars: 7, bytes: 11 }],
    ["  spaced   out  ", { lines: 1, words: 2, chars: 16, bytes: 16 }],
  ];
  for (const [text, expected] of cases) {
    const result = await runTool(textStats, { text, top: 0 }) as Record<string, unknown>;
    assert.deepEqual(
      {
        lines: result["lines"],
        words: result["words"],
        chars: result["chars"],
        bytes: result["bytes"],
      },
      expected,
      JSON.stringify(text),
    );
  }
});

Deno.test("text_stats lists the most frequent words, case-insensitive, ties alphabetical", async () => {
  const result = await runTool(textStats, {
    text: "The cat and the dog. THE end, and cat!",
    top: 3,
  }) as {
    top_words: unknown;
  };
  assert.deepEqual(result.top_words, [
    { word: "the", count: 3 },
    { word: "and", count: 2 },
    { word: "cat", count: 2 },
  ]);
});

Deno.test("text_stats defaults to ten top words and is a read tool", async () => {
  const text = Array.from({ length: 12 }, (_, i) => `w${String(i).padStart(2, "0")}`).join(" ");
  const result = await runTool(textStats, { text }) as { top_words: unknown[] };
  assert.equal(result.top_words.length, 10);
  assert.equal(textStats.effect, "read");
});
