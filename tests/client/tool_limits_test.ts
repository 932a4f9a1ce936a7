import assert from "node:assert/strict";
import { checkAdvertisedResultPart, fitsUtf8Bytes } from "../../src/client/_tool_limits.ts";
import { utf8ByteLength } from "../../src/protocol/utf8.ts";

/** Texts whose UTF-8 size sits near a limit in every way a character can straddle it. */
function samples(): string[] {
  const units = ["a", "é", "€", "😀", "\ud800", "\udc00", '"', "\n"];
  const out: string[] = ["", "a".repeat(16_384), "a".repeat(16_383) + "é", "€".repeat(5_462)];
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let n = 0; n < 400; n++) {
    const length = Math.floor(random() * 40);
    let text = "";
    for (let i = 0; i < length; i++) text += units[Math.floor(random() * units.length)];
    out.push(text, "a".repeat(16_380) + text);
  }
  return out;
}

Deno.test("fitsUtf8Bytes() agrees with utf8ByteLength() at and around every limit", () => {
  let checked = 0;
  for (const text of samples()) {
    const bytes = utf8ByteLength(text);
    for (const limit of [0, 1, 2, 3, 4, bytes - 1, bytes, bytes + 1, 16_384, 70_000]) {
      if (limit < 0) continue;
      assert.equal(
        fitsUtf8Bytes(text, limit),
        bytes <= limit,
        `${JSON.stringify(text.slice(-8))} at ${limit}`,
      );
      checked++;
    }
  }
  assert.ok(checked > 8_000);
});

Deno.test("checkAdvertisedResultPart() still names the exact size of a part over the limit", () => {
  const limits = { result_part_bytes: 16_384, result_parts: 256 };
  assert.equal(checkAdvertisedResultPart({ part: 0, text: "a".repeat(16_384) }, limits), null);
  assert.equal(checkAdvertisedResultPart({ part: 0, text: "€".repeat(5_461) + "a" }, limits), null);
  const over = checkAdvertisedResultPart({ part: 0, text: "a".repeat(16_383) + "é" }, limits);
  assert.ok(over instanceof RangeError);
  assert.equal(
    over.message,
    "Tool result part exceeds the backend's result_part_bytes (16384): 16385 bytes",
  );
  const surrogate = checkAdvertisedResultPart(
    { part: 0, text: "a".repeat(16_382) + "\ud800" },
    limits,
  );
  assert.match(surrogate!.message, /: 16385 bytes$/);
  assert.match(checkAdvertisedResultPart({ part: 256, text: "" }, limits)!.message, /part 256$/);
});
