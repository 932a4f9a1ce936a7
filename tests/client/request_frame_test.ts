import assert from "node:assert/strict";
import {
  AROUND_MIN_CHARS,
  encodeRequest,
  markPlainAscii,
  resultPartFault,
} from "../../src/client/request_frame.ts";
import { encodeFrame, FrameTooLargeError } from "../../src/protocol/framing.ts";
import { requestFrame } from "../../src/protocol/envelope.ts";
import type { JsonObject } from "../../src/protocol/json.ts";
import { CLIENT_TOOLS_LIMITS, INPUT_FRAME_BYTES } from "../../src/protocol/limits.ts";
import type { ClientToolResultParams } from "../../src/protocol/schemas/mod.ts";
import { splitSizedResultText } from "../../src/tool/result.ts";
import { defaultEnvelopeBytes } from "../../src/call/settle.ts";

const limits = { ...CLIENT_TOOLS_LIMITS };
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The frame as serializing it gives it (the old path, and the reference). */
function serialized(id: string, params: ClientToolResultParams): Uint8Array {
  return encodeFrame(requestFrame(id, "client.tool.result", { ...params }), INPUT_FRAME_BYTES + 1);
}

/** Params as the call path builds them (`src/call/client_tools.ts`): `error_code` after `text`. */
function partParams(
  text: string,
  part: number,
  last: boolean,
  outcome: "success" | "error" | "cancelled" = "success",
): ClientToolResultParams {
  const params: ClientToolResultParams = {
    session_id: "session-1",
    run_id: "0f8fad5b-d9cb-469f-a165-70867728950e",
    call_id: `call_${part % 7}`,
    part,
    last_part: last,
    outcome,
    text,
  };
  if (outcome === "error") params.error_code = "tool_failed";
  return params;
}

/** Printable ASCII text of `length` characters from `seed` (quotes and backslashes included). */
function printableText(length: number, seed: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += String.fromCharCode(0x20 + ((seed + i * 31) % 95));
  return text;
}

Deno.test("encodeRequest() writes a marked part's frame byte for byte as serializing it does", () => {
  const texts = [
    "a".repeat(AROUND_MIN_CHARS),
    "b".repeat(16_384),
    "x y z ".repeat(2_000),
    // Every printable character but `"` and `\`, at the start, in the middle and at the end.
    printableText(5_000, 3).replaceAll('"', "q").replaceAll("\\", "s"),
    "~" + "m".repeat(3_000) + "}",
    "{" + "m".repeat(3_000) + "\x7f",
  ];
  let around = 0;
  for (const [n, text] of texts.entries()) {
    for (const outcome of ["success", "error", "cancelled"] as const) {
      for (const [part, last] of [[0, true], [0, false], [17, false], [255, true]] as const) {
        const params = partParams(text, part, last, outcome);
        const expected = serialized(`r${n + 1}`, params);
        markPlainAscii(params);
        const bytes = encodeRequest(
          `r${n + 1}`,
          "client.tool.result",
          params as JsonObject,
          limits,
        );
        assert.deepEqual(bytes, expected, `text ${n}, ${outcome}, part ${part}`);
        assert.equal(decode(bytes).at(-1), "\n");
        assert.deepEqual(JSON.parse(decode(bytes)).params.text, text);
        around++;
      }
    }
  }
  assert.equal(around, texts.length * 12);
});

Deno.test("encodeRequest() serializes a marked part JSON must escape or that is not ASCII", () => {
  const texts = [
    'say "hi" ' + "a".repeat(2_000),
    "a".repeat(2_000) + "\\",
    "a".repeat(2_000) + '"',
    "é" + "a".repeat(2_000),
    "a".repeat(2_000) + "😀",
    "a".repeat(2_000) + "\ud800",
    '"text":""' + "a".repeat(2_000),
  ];
  for (const [n, text] of texts.entries()) {
    const params = partParams(text, 3, true);
    const expected = serialized("r9", params);
    markPlainAscii(params);
    const bytes = encodeRequest("r9", "client.tool.result", params as JsonObject, limits);
    assert.deepEqual(bytes, expected, `text ${n}`);
    assert.equal(JSON.parse(decode(bytes)).params.text, text);
  }
});

Deno.test("a marked part found not to be ASCII is still held to result_part_bytes", () => {
  // 16,384 units fit by length, but "é" makes the text 16,385 bytes.
  const params = partParams("é" + "a".repeat(16_383), 0, true);
  markPlainAscii(params);
  assert.equal(resultPartFault("client.tool.result", params, limits), null, "length fits");
  assert.throws(
    () => encodeRequest("r1", "client.tool.result", params as JsonObject, limits),
    (error: unknown) => error instanceof RangeError && /16385 bytes/.test(error.message),
  );
  // Unmarked, the same part is refused before it gets an ID.
  const plain = partParams("é" + "a".repeat(16_383), 0, true);
  assert.match(resultPartFault("client.tool.result", plain, limits)!.message, /16385 bytes/);
  assert.equal(
    resultPartFault("client.tool.result", partParams("a".repeat(16_385), 0, true), limits)
      ?.name,
    "RangeError",
  );
  assert.equal(resultPartFault("status", {}, limits), null);
  assert.equal(resultPartFault("client.tool.result", plain, null), null);
});

Deno.test("encodeRequest() throws the frame size for a marked part too large for a frame", () => {
  const params = partParams("a".repeat(INPUT_FRAME_BYTES), 0, true);
  markPlainAscii(params);
  assert.throws(
    () => encodeRequest("r1", "client.tool.result", params as JsonObject, null),
    (error: unknown) =>
      error instanceof FrameTooLargeError && error.limit === INPUT_FRAME_BYTES + 1,
  );
});

Deno.test("short parts are not marked: they are serialized whole", () => {
  const params = partParams("a".repeat(AROUND_MIN_CHARS - 1), 0, true);
  markPlainAscii(params);
  assert.equal(Object.getOwnPropertySymbols(params).length, 0);
  const long = partParams("a".repeat(AROUND_MIN_CHARS), 0, true);
  markPlainAscii(long);
  assert.equal(Object.getOwnPropertySymbols(long).length, 1);
  assert.equal(JSON.stringify(long), JSON.stringify(partParams(long.text, 0, true)));
});

Deno.test("every part the split calls plain ASCII is framed as serializing it does", () => {
  const options = {
    partBytes: CLIENT_TOOLS_LIMITS.result_part_bytes,
    frameBytes: INPUT_FRAME_BYTES,
    envelopeBytes: defaultEnvelopeBytes(CLIENT_TOOLS_LIMITS),
  };
  const unit = "abcdefghijklmnopqrstuvwxyz0123456789 ";
  const big = unit.repeat(Math.ceil(1_048_576 / unit.length)).slice(0, 1_048_576);
  const at = (text: string, index: number, char: string) =>
    text.slice(0, index) + char + text.slice(index + 1);
  const texts = [
    big,
    big.slice(0, 60 * 1024),
    big.slice(0, 16_384),
    big.slice(0, 16_385),
    big.slice(0, 16_383),
    // A character JSON escapes (or that is not ASCII) in one part, at a part's edges.
    at(big.slice(0, 70_000), 0, '"'),
    at(big.slice(0, 70_000), 16_383, "\\"),
    at(big.slice(0, 70_000), 16_384, "\n"),
    at(big.slice(0, 70_000), 32_767, "\t"),
    at(big.slice(0, 70_000), 40_000, "\x01"),
    at(big.slice(0, 70_000), 69_999, "\x7f"),
    at(big.slice(0, 70_000), 50_000, "é"),
    at(big.slice(0, 70_000), 50_000, "😀"),
    printableText(100_000, 11),
    "a".repeat(16_384) + '"' + "b".repeat(16_383) + "\\" + "c".repeat(16_384) + "\r\n",
  ];
  let marked = 0;
  let around = 0;
  for (const [n, text] of texts.entries()) {
    const split = splitSizedResultText(text, options);
    assert.equal(split.parts.join(""), text);
    // A control JSON escapes long, or a character that is not ASCII: the per-character path.
    assert.equal(
      split.plainAscii === undefined,
      ["\x01", "é", "😀"].some((char) => text.includes(char)),
      `text ${n}`,
    );
    for (const [part, piece] of split.parts.entries()) {
      const plain = split.plainAscii?.[part] === true;
      // Known exactly on the ASCII path; not known (none marked) on the per-character path.
      const expected = split.plainAscii === undefined ? false : /^[\x20-\x7f]*$/.test(piece);
      assert.equal(plain, expected, `text ${n} part ${part}`);
      const params = partParams(piece, part, part === split.parts.length - 1);
      const reference = serialized(`r${part + 1}`, params);
      if (plain) markPlainAscii(params);
      marked += Object.getOwnPropertySymbols(params).length;
      const bytes = encodeRequest(
        `r${part + 1}`,
        "client.tool.result",
        params as JsonObject,
        limits,
      );
      assert.deepEqual(bytes, reference, `text ${n} part ${part}`);
      if (plain && !/["\\]/.test(piece)) around++;
    }
  }
  assert.ok(marked > 100 && around > 80, `${marked} marked, ${around} written around`);
});
