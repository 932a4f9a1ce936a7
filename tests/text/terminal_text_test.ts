// deno-lint-ignore-file no-control-regex -- the tests are about control characters
import assert from "node:assert/strict";
import { terminalSafeJson, terminalText } from "../../src/text/terminal_text.ts";

const CASES: readonly [string, string, string][] = [
  ["OSC 52 clipboard write", "\x1b]52;c;SGVsbG8=\x07", "\\x1b]52;c;SGVsbG8=\\x07"],
  ["OSC 0 title", "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"],
  ["clear screen", "\x1b[2J", "\\x1b[2J"],
  [
    "OSC 8 link",
    "\x1b]8;;http://x/\x1b\\a\x1b]8;;\x1b\\",
    "\\x1b]8;;http://x/\\x1b\\a\\x1b]8;;\\x1b\\",
  ],
  ["C1 CSI", "\u009b31m", "\\u009b31m"],
  ["every C1", "\u0080\u009f", "\\u0080\\u009f"],
  ["a lone CR", "done\rforged", "done\\rforged"],
  ["CR at the end", "x\r", "x\\r"],
  ["NUL, BEL, backspace, VT, FF", "\0\x07\b\v\f", "\\x00\\x07\\x08\\x0b\\x0c"],
  ["DEL", "a\x7fb", "a\\x7fb"],
  ["CR LF is a line break", "a\r\nb", "a\nb"],
  ["LF and tab stay", "a\n\tb", "a\n\tb"],
  ["non-ASCII stays", "Ä ✓ 日本 🙂 \u00a0 \u2028", "Ä ✓ 日本 🙂 \u00a0 \u2028"],
  ["bidi overrides and isolates", "a\u202eb\u2066c\u2069", "a\\u202eb\\u2066c\\u2069"],
  ["backslashes stay", "C:\\tools\\x1b", "C:\\tools\\x1b"],
  ["empty", "", ""],
];

for (const [what, input, shown] of CASES) {
  Deno.test(`terminalText() shows ${what} as ${JSON.stringify(shown)}`, () => {
    assert.equal(terminalText(input), shown);
  });
}

Deno.test("terminalText() leaves no control but LF and tab, for every code unit below U+00A0", () => {
  let all = "";
  for (let code = 0; code < 0xa0; code++) all += String.fromCharCode(code);
  const shown = terminalText(all);
  assert.doesNotMatch(
    shown.replaceAll("\n", "").replaceAll("\t", ""),
    /[\u0000-\u001f\u007f-\u009f]/,
  );
  assert.equal((shown.match(/\n/g) ?? []).length, 1);
});

Deno.test("terminalSafeJson() escapes DEL and C1, and parses back to the same value", () => {
  const value = { text: "\u009b2J\x1b]0;t\x07\x7f\u0085 Ä\n", n: 1, list: ["\u0090"] };
  const line = terminalSafeJson(value);
  assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/);
  assert.ok(line.includes("\\u009b2J") && line.includes("\\u007f") && line.includes("\\u0085"));
  assert.deepEqual(JSON.parse(line), value);
  assert.equal(terminalSafeJson({ a: "plain Ä" }), JSON.stringify({ a: "plain Ä" }));
});
