/**
 * `text_stats`: counts over a text argument (pure computation).
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "@magi/tools";

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;

export default defineTool({
  name: "text_stats",
  description: "Count lines, words, characters and UTF-8 bytes of the given text, and list its " +
    "most frequent words (case-insensitive, ties in alphabetical order). Use it instead of " +
    "counting by hand.",
  input: z.strictObject({
    text: z.string().describe("The text to measure"),
    top: z.int().min(0).max(50).default(10).describe("How many frequent words to list"),
  }),
  effect: "read",
  run({ text, top }) {
    const counts = new Map<string, number>();
    for (const match of text.matchAll(WORD)) {
      const word = match[0].toLowerCase();
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const topWords = [...counts].sort((a, b) =>
      b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
    )
      .slice(0, top)
      .map(([word, count]) => ({ word, count }));
    return {
      lines: countLines(text),
      words: text.split(/\s+/u).filter((word) => word !== "").length,
      chars: [...text].length,
      bytes: new TextEncoder().encode(text).length,
      top_words: topWords,
    };
  },
});

/** Lines as an editor shows them: "" has 0, a final line without LF still counts. */
function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 0;
  for (const char of text) if (char === "\n") lines++;
  return text.endsWith("\n") ? lines : lines + 1;
}
