import assert from "node:assert/strict";
import {
  hasC0,
  hasC0OrDel,
  hasC0OrDelExceptTabLf,
  hasControl,
  hasControlExceptTabLf,
  hasHeaderBreak,
  hasJsonLongEscape,
  replaceControl,
  replaceControlExceptTabLf,
  replaceTerminalUnsafe,
} from "../../src/text/control.ts";

const PREDICATES = {
  hasC0,
  hasControl,
  hasControlExceptTabLf,
  hasC0OrDel,
  hasC0OrDelExceptTabLf,
  hasHeaderBreak,
  hasJsonLongEscape,
};
type Name = keyof typeof PREDICATES;

// Each boundary character and the classes that hold it (the rest must not).
const CLASSES: [string, string, Name[]][] = [
  ["NUL", "\u0000", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasHeaderBreak",
    "hasJsonLongEscape",
  ]],
  ["BEL", "\u0007", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasJsonLongEscape",
  ]],
  ["backspace", "\b", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
  ]],
  ["tab", "\t", ["hasC0", "hasControl", "hasC0OrDel"]],
  ["LF", "\n", ["hasC0", "hasControl", "hasC0OrDel", "hasHeaderBreak"]],
  ["VT", "\u000b", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasJsonLongEscape",
  ]],
  ["form feed", "\f", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
  ]],
  ["CR", "\r", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasHeaderBreak",
  ]],
  ["SO", "\u000e", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasJsonLongEscape",
  ]],
  ["ESC", "\u001b", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasJsonLongEscape",
  ]],
  ["US", "\u001f", [
    "hasC0",
    "hasControl",
    "hasControlExceptTabLf",
    "hasC0OrDel",
    "hasC0OrDelExceptTabLf",
    "hasJsonLongEscape",
  ]],
  ["space", " ", []],
  ["tilde", "~", []],
  ["DEL", "\u007f", ["hasControl", "hasControlExceptTabLf", "hasC0OrDel", "hasC0OrDelExceptTabLf"]],
  ["first C1", "\u0080", ["hasControl", "hasControlExceptTabLf"]],
  ["CSI (C1)", "\u009b", ["hasControl", "hasControlExceptTabLf"]],
  ["last C1", "\u009f", ["hasControl", "hasControlExceptTabLf"]],
  ["no-break space", "\u00a0", []],
  ["right-to-left override", "\u202e", []],
  ["a lone surrogate", "\ud800", []],
  ["an emoji", "😀", []],
];

for (const [name, char, holders] of CLASSES) {
  Deno.test(`control classes: ${name}`, () => {
    for (
      const [predicate, test] of Object.entries(PREDICATES) as [Name, (t: string) => boolean][]
    ) {
      const expected = holders.includes(predicate);
      // Alone and inside other text, and twice in a row (no state kept between calls).
      assert.equal(test(char), expected, `${predicate}(${JSON.stringify(char)})`);
      assert.equal(test(`ab${char}cd`), expected, `${predicate} inside text`);
      assert.equal(test(`ab${char}cd`), expected, `${predicate} called again`);
    }
  });
}

Deno.test("replaceControl() replaces C0, DEL and C1, tab and LF included", () => {
  assert.equal(replaceControl("a\tb\nc\u0000d\u007fe\u0085f\u00a0g", " "), "a b c d e f\u00a0g");
  assert.equal(
    replaceControl("x\u001by\u009b", (c) => `<${c.charCodeAt(0).toString(16)}>`),
    "x<1b>y<9b>",
  );
});

Deno.test("replaceControlExceptTabLf() keeps tab and LF", () => {
  assert.equal(replaceControlExceptTabLf("a\tb\nc\rd\u0000e\u0085f", " "), "a\tb\nc d e f");
  assert.equal(replaceControlExceptTabLf("\u007f\u007f", (c) => String(c.length)), "11");
});

Deno.test("replaceTerminalUnsafe() matches CRLF as one and the bidi controls", () => {
  const seen: string[] = [];
  const out = replaceTerminalUnsafe("a\r\nb\rc\td\u202ee\u2066f\u2069g\u202ah\u009bi\nj", (m) => {
    seen.push(m);
    return "_";
  });
  assert.equal(out, "a_b_c\td_e_f_g_h_i\nj");
  assert.deepEqual(seen, ["\r\n", "\r", "\u202e", "\u2066", "\u2069", "\u202a", "\u009b"]);
});
