import assert from "node:assert/strict";
import wabt from "wabt";
import {
  asciiClass,
  asciiClassByRegExp,
  HAS_C0,
  HAS_QUOTE_OR_BACKSLASH,
  NOT_ASCII,
  SCAN_WASM,
} from "../../src/text/ascii_scan.ts";

const SOURCE = new URL("../../src/text/ascii_scan.ts", import.meta.url);

Deno.test("the embedded module is what wabt builds from the source in the module's comment", async () => {
  const text = await Deno.readTextFile(SOURCE);
  const block = /```wat\n([\s\S]*?)\n \* ```/.exec(text);
  assert.ok(block !== null, "no ```wat block in ascii_scan.ts");
  const wat = block[1]!.split("\n").map((line) => line.replace(/^ \* ?/, "")).join("\n");
  const module = (await wabt()).parseWat("ascii_scan.wat", wat, { simd: true });
  try {
    const { buffer } = module.toBinary({});
    const built = btoa(String.fromCharCode(...buffer));
    assert.equal(built, SCAN_WASM);
  } finally {
    module.destroy();
  }
});

Deno.test("asciiClass: each ASCII character alone and at every offset of a 64-byte step", () => {
  for (let code = 0; code < 0x80; code++) {
    const char = String.fromCharCode(code);
    const expected = (code < 0x20 ? HAS_C0 : 0) |
      (char === '"' || char === "\\" ? HAS_QUOTE_OR_BACKSLASH : 0);
    for (const at of [0, 1, 15, 16, 31, 47, 63, 64, 65, 127, 128, 200]) {
      const text = "a".repeat(at) + char + "b".repeat(130 - Math.min(at, 130));
      assert.equal(asciiClass(text), expected, `U+${code.toString(16)} at ${at}`);
    }
  }
});

Deno.test("asciiClass: chunk edges, padding and the empty text", () => {
  assert.equal(asciiClass(""), 0);
  const chunk = 64 * 1024;
  for (const length of [chunk - 1, chunk, chunk + 1, 3 * chunk + 17]) {
    const plain = "x".repeat(length);
    assert.equal(asciiClass(plain), 0, `plain of ${length}`);
    for (const at of [0, chunk - 1, chunk, length - 1]) {
      if (at >= length) continue;
      const withTab = plain.slice(0, at) + "\t" + plain.slice(at + 1);
      assert.equal(asciiClass(withTab), HAS_C0, `tab at ${at} of ${length}`);
      const withQuote = plain.slice(0, at) + '"' + plain.slice(at + 1);
      assert.equal(asciiClass(withQuote), HAS_QUOTE_OR_BACKSLASH, `quote at ${at} of ${length}`);
      const withE = plain.slice(0, at) + "é" + plain.slice(at + 1);
      assert.equal(asciiClass(withE), NOT_ASCII, `é at ${at} of ${length}`);
    }
  }
  // A short text after a long one: the padding, not the earlier bytes, follows it.
  assert.equal(asciiClass("\n".repeat(1000)), HAS_C0);
  assert.equal(asciiClass("ok"), 0);
});

Deno.test("asciiClass: not ASCII for any unit above U+007F, surrogate halves included", () => {
  for (
    const text of [
      "\u0080",
      "\u00ff",
      "\u0100",
      "\u2028",
      "\ud83d\ude00",
      "\ud800",
      "\udfff",
      "\uffff",
    ]
  ) {
    assert.equal(asciiClass("abc" + text + "def"), NOT_ASCII, JSON.stringify(text));
    assert.equal(asciiClassByRegExp("abc" + text + "def"), NOT_ASCII, JSON.stringify(text));
  }
});

Deno.test("asciiClass agrees with the regular expressions on generated texts", () => {
  // A fixed-seed generator: the same texts on every run.
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x1_0000_0000;
  };
  const alphabet = ["a", " ", "~", '"', "\\", "\n", "\u0000", "\u001f", "\u007f", "é", "\ud83d"];
  for (let round = 0; round < 2000; round++) {
    const length = Math.floor(next() * 300);
    let text = "";
    const rare = next() < 0.5 ? 0.002 : 0.05;
    for (let i = 0; i < length; i++) {
      text += next() < rare ? alphabet[Math.floor(next() * alphabet.length)]! : "q";
    }
    assert.equal(asciiClass(text), asciiClassByRegExp(text), JSON.stringify(text));
  }
});
