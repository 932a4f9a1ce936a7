import assert from "node:assert/strict";
import {
  encodedFrameBytes,
  encodeFrame,
  encodeFrameWithText,
  FrameDecoder,
  type FrameErrorCode,
  type FrameItem,
  FrameTooLargeError,
} from "../../src/protocol/framing.ts";
import { INPUT_FRAME_BYTES, OUTPUT_FRAME_BYTES } from "../../src/protocol/limits.ts";

const te = new TextEncoder();

function bytes(...parts: (string | number[] | Uint8Array)[]): Uint8Array {
  const arrays = parts.map((p) =>
    typeof p === "string" ? te.encode(p) : p instanceof Uint8Array ? p : Uint8Array.from(p)
  );
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/** A JSON string literal frame of exactly `size` bytes (no LF). */
function frameOf(size: number): string {
  return '"' + "x".repeat(size - 2) + '"';
}

function decodeAll(input: Uint8Array, maxFrameBytes?: number): FrameItem[] {
  const decoder = new FrameDecoder(maxFrameBytes === undefined ? {} : { maxFrameBytes });
  return [...decoder.push(input), ...decoder.end()];
}

const frame = (text: string): FrameItem => ({
  kind: "frame",
  text,
  bytes: te.encode(text).length,
});
const error = (code: FrameErrorCode, fatal = false): FrameItem => ({ kind: "error", code, fatal });

const CASES: [string, Uint8Array, FrameItem[]][] = [
  ["splits two frames", bytes('{"a":1}\n{"b":2}\n'), [frame('{"a":1}'), frame('{"b":2}')]],
  ["keeps a CR before LF in the text", bytes('{"a":1}\r\n'), [frame('{"a":1}\r')]],
  ["rejects an empty line", bytes("\n"), [error("invalid_frame")]],
  ["rejects an empty line between frames", bytes("1\n\n2\n"), [
    frame("1"),
    error("invalid_frame"),
    frame("2"),
  ]],
  ["does not treat a lone CR as empty", bytes("\r\n"), [frame("\r")]],
  ["reports a partial frame at EOF", bytes('{"a":1}\n{"b"'), [
    frame('{"a":1}'),
    error("incomplete_frame"),
  ]],
  ["reports nothing at EOF after a complete frame", bytes("1\n"), [frame("1")]],
  ["accepts 65,536 bytes", bytes(frameOf(INPUT_FRAME_BYTES), "\n"), [
    frame(frameOf(INPUT_FRAME_BYTES)),
  ]],
  ["rejects 65,537 bytes", bytes(frameOf(INPUT_FRAME_BYTES + 1), "\n"), [
    error("frame_too_large", true),
  ]],
  ["accepts CRLF where the CR is byte 65,536", bytes(frameOf(INPUT_FRAME_BYTES - 1), "\r\n"), [
    frame(frameOf(INPUT_FRAME_BYTES - 1) + "\r"),
  ]],
  ["rejects CRLF where the CR is byte 65,537", bytes(frameOf(INPUT_FRAME_BYTES), "\r\n"), [
    error("frame_too_large", true),
  ]],
  [
    "rejects an oversize partial frame without waiting for LF",
    bytes(
      "1\n",
      "x".repeat(INPUT_FRAME_BYTES + 1),
    ),
    [frame("1"), error("frame_too_large", true)],
  ],
  ["ignores bytes after frame_too_large", bytes("x".repeat(INPUT_FRAME_BYTES + 1), "\n2\n"), [
    error("frame_too_large", true),
  ]],
  ["counts bytes, not characters", bytes('"' + "é".repeat(32_767) + '"\n'), [
    frame('"' + "é".repeat(32_767) + '"'),
  ]],
  ["rejects multibyte text over the byte limit", bytes('"' + "é".repeat(32_768) + '"\n'), [
    error("frame_too_large", true),
  ]],
  ["rejects an overlong encoding", bytes([0x22, 0xc0, 0xaf, 0x22, 0x0a]), [
    error("invalid_request"),
  ]],
  ["rejects a lone continuation byte", bytes([0x22, 0x80, 0x22, 0x0a]), [
    error("invalid_request"),
  ]],
  ["rejects a truncated sequence", bytes([0x22, 0xe2, 0x82, 0x22, 0x0a]), [
    error("invalid_request"),
  ]],
  ["rejects an encoded surrogate code point", bytes([0x22, 0xed, 0xa0, 0x80, 0x22, 0x0a]), [
    error("invalid_request"),
  ]],
  ["rejects a code point above U+10FFFF", bytes([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22, 0x0a]), [
    error("invalid_request"),
  ]],
  ["continues after invalid UTF-8", bytes([0xff, 0x0a], "1\n"), [
    error("invalid_request"),
    frame("1"),
  ]],
  ["keeps a byte order mark in the text", bytes([0xef, 0xbb, 0xbf], "1\n"), [frame("\ufeff1")]],
  ["accepts a 4-byte character", bytes('"😀"\n'), [frame('"😀"')]],
];

for (const [name, input, expected] of CASES) {
  Deno.test(`FrameDecoder ${name}`, () => {
    assert.deepEqual(decodeAll(input), expected);
  });
}

Deno.test("FrameDecoder honours a custom limit", () => {
  assert.deepEqual(decodeAll(bytes("1234\n"), 4), [frame("1234")]);
  assert.deepEqual(decodeAll(bytes("12345\n"), 4), [error("frame_too_large", true)]);
});

Deno.test("FrameDecoder closes after frame_too_large and on end()", () => {
  const decoder = new FrameDecoder({ maxFrameBytes: 4 });
  assert.equal(decoder.closed, false);
  assert.deepEqual(decoder.push(bytes("12345")), [error("frame_too_large", true)]);
  assert.equal(decoder.closed, true);
  assert.equal(decoder.bufferedBytes, 0);
  assert.deepEqual(decoder.push(bytes("1\n")), []);
  assert.deepEqual(decoder.end(), []);
  const other = new FrameDecoder();
  other.push(bytes("12"));
  assert.equal(other.bufferedBytes, 2);
  assert.deepEqual(other.end(), [error("incomplete_frame")]);
  assert.equal(other.closed, true);
  assert.deepEqual(other.push(bytes("3\n")), []);
});

Deno.test("FrameDecoder rejects an invalid limit", () => {
  assert.throws(() => new FrameDecoder({ maxFrameBytes: 0 }), RangeError);
});

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function decodeInChunks(
  input: Uint8Array,
  rand: () => number,
  maxFrameBytes: number,
): FrameItem[] {
  const decoder = new FrameDecoder({ maxFrameBytes });
  const items: FrameItem[] = [];
  let at = 0;
  while (at < input.length) {
    const size = 1 + Math.floor(rand() * rand() * 300);
    items.push(...decoder.push(input.subarray(at, at + size)));
    assert.ok(decoder.bufferedBytes <= maxFrameBytes);
    at += size;
  }
  items.push(...decoder.end());
  return items;
}

Deno.test("FrameDecoder yields identical items for any chunking", () => {
  const stream = bytes(
    '{"a":1}\r\n',
    "\n",
    [0x22, 0xe2, 0x82, 0xac, 0x22, 0x0a], // "€"
    [0x22, 0xc0, 0xaf, 0x22, 0x0a],
    '"' + "é".repeat(100) + '"\n',
    "1".repeat(200),
    "\n",
    "x".repeat(257),
    "\n2\n",
  );
  const expected = decodeAll(stream, 256);
  assert.equal(expected.at(-1)?.kind, "error");
  const rand = prng(42);
  for (let run = 0; run < 500; run++) {
    assert.deepEqual(decodeInChunks(stream, rand, 256), expected);
  }
  const withPartial = bytes('{"a":1}\n\n"', "é".repeat(50));
  const expectedPartial = decodeAll(withPartial, 256);
  assert.deepEqual(expectedPartial.at(-1), error("incomplete_frame"));
  for (let run = 0; run < 200; run++) {
    assert.deepEqual(decodeInChunks(withPartial, rand, 256), expectedPartial);
  }
});

Deno.test("FrameDecoder never throws and stays bounded on random and hostile bytes", () => {
  const rand = prng(1234);
  const hostile = [0x0a, 0x0d, 0xff, 0xc0, 0xed, 0xa0, 0xf4, 0x80, 0x22, 0x7b];
  for (let run = 0; run < 300; run++) {
    const input = new Uint8Array(Math.floor(rand() * 2000));
    for (let i = 0; i < input.length; i++) {
      input[i] = rand() < 0.5
        ? hostile[Math.floor(rand() * hostile.length)]!
        : Math.floor(rand() * 256);
    }
    const max = 1 + Math.floor(rand() * 64);
    const items = decodeInChunks(input, rand, max);
    assert.deepEqual(items, decodeAll(input, max));
    for (const item of items) {
      if (item.kind === "frame") assert.ok(item.bytes <= max && item.bytes > 0);
    }
    const fatal = items.findIndex((item) => item.kind === "error" && item.fatal);
    assert.ok(fatal === -1 || fatal === items.length - 1);
  }
});

Deno.test("encodeFrame() writes JSON plus LF", () => {
  assert.equal(new TextDecoder().decode(encodeFrame({ a: "é" })), '{"a":"é"}\n');
  assert.equal(encodedFrameBytes({ a: "é" }), 11);
  assert.equal(encodedFrameBytes({ a: "😀" }), 13);
  assert.equal(encodedFrameBytes("\ud800"), 9); // lone surrogate is escaped by JSON.stringify
});

Deno.test("encodeFrame() accepts exactly the limit including LF and rejects one more", () => {
  const fits = frameOf(OUTPUT_FRAME_BYTES - 1);
  assert.equal(encodeFrame(JSON.parse(fits)).length, OUTPUT_FRAME_BYTES);
  const over = JSON.parse(frameOf(OUTPUT_FRAME_BYTES));
  assert.throws(() => encodeFrame(over), (err: unknown) => {
    assert.ok(err instanceof FrameTooLargeError);
    assert.ok(err instanceof RangeError);
    assert.equal(err.bytes, OUTPUT_FRAME_BYTES + 1);
    assert.equal(err.limit, OUTPUT_FRAME_BYTES);
    return true;
  });
  assert.throws(() => encodeFrame({ a: 1 }, 7), FrameTooLargeError);
  assert.equal(encodeFrame({ a: 1 }, 8).length, 8);
});

Deno.test("encodeFrame() rejects values without a JSON form", () => {
  assert.throws(() => encodeFrame(undefined), TypeError);
  assert.throws(() => encodeFrame(1n), TypeError);
});

Deno.test("encodeFrameWithText() gives encodeFrame()'s bytes for text JSON writes as it is", () => {
  const texts = ["", "a", " !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~\x7f", "x".repeat(20_000)];
  const shapes = [
    (text: string) => ({ text }),
    (text: string) => ({ a: 1, text, b: [true, null], c: "é" }),
    (text: string) => ({ outer: { id: "r1", params: { part: 3, text } }, after: "text" }),
    (text: string) => ({ context: "", subtext: "", text, error_code: "tool_failed" }),
  ];
  for (const shape of shapes) {
    for (const text of texts) {
      const around = encodeFrameWithText(shape(""), text, 1_000_000);
      assert.ok(around !== null, `${JSON.stringify(shape(""))} around ${text.length}`);
      assert.deepEqual(around, encodeFrame(shape(text), 1_000_000));
    }
  }
});

Deno.test("encodeFrameWithText() fills all the memory it is given: a used buffer makes the same frame", () => {
  for (const value of [{ a: 1, text: "", b: true }, { a: "é", text: "" }]) {
    const text = "plain ascii text ".repeat(100);
    const dirty = (size: number) => new Uint8Array(size).fill(0xff);
    const around = encodeFrameWithText(value, text, 1_000_000, dirty);
    assert.deepEqual(around, encodeFrame({ ...value, text }), JSON.stringify(value));
  }
});

Deno.test("encodeFrameWithText() declines what it cannot write around", () => {
  const cases: [unknown, string, string][] = [
    [{ text: "" }, 'a"b', "a quote"],
    [{ text: "" }, "a\\b", "a backslash"],
    [{ text: "" }, "é", "not ASCII"],
    [{ text: "" }, "a😀", "a surrogate pair"],
    [{ text: "" }, "\ud800", "a lone surrogate"],
    [{ note: "" }, "abc", "no text member"],
    [{ text: "x" }, "abc", "a text member that is not empty"],
    [{ text: "", inner: { text: "" } }, "abc", "two text members"],
    [{ key: '"text":""' }, "abc", "the slot's characters inside a string only"],
    [{ 'a"text': "" }, "abc", "the slot's characters inside a key"],
  ];
  for (const [value, text, what] of cases) {
    assert.equal(encodeFrameWithText(value, text), null, what);
  }
  // Over the bound it declines too, so that encodeFrame() measures and throws.
  const fits = encodeFrameWithText({ text: "" }, "a".repeat(8), 20);
  assert.equal(fits?.length, 20);
  assert.equal(encodeFrameWithText({ text: "" }, "a".repeat(9), 20), null);
  assert.throws(() => encodeFrame({ text: "a".repeat(9) }, 20), FrameTooLargeError);
  assert.throws(() => encodeFrameWithText(undefined, "a"), TypeError);
});
