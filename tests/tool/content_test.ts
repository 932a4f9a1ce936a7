/** Rich results (`content.ts`) and the overflow text (`overflow.ts`), as units. */
import assert from "node:assert/strict";
import {
  audio,
  checkContent,
  content,
  image,
  isRichResult,
  partBytes,
  resourceLink,
} from "../../src/tool/content.ts";
import { truncateResult } from "../../src/call/overflow.ts";

Deno.test("content() makes a branded result; strings become text parts", () => {
  const result = content("caption", image(new Uint8Array([1, 2, 3]), "image/png"));
  assert.equal(isRichResult(result), true);
  assert.deepEqual(result.content, [
    { type: "text", text: "caption" },
    { type: "image", data: "AQID", mimeType: "image/png" },
  ]);
  assert.equal(isRichResult({ content: [] }), false);
});

Deno.test("partBytes() counts images and audio by their decoded bytes", () => {
  assert.equal(partBytes(image(new Uint8Array(3), "image/png")), 3);
  assert.equal(partBytes(audio(new Uint8Array(4), "audio/wav")), 4);
  assert.equal(partBytes(image(new Uint8Array(5), "image/png")), 5);
  assert.equal(partBytes({ type: "text", text: "é" }), 2);
});

const BAD: [string, unknown, RegExp][] = [
  ["no parts", [], /^Tool content must be 1 to 64 parts$/],
  ["a part that is not an object", ["x"], /^Tool content\[0\] must be an object$/],
  ["an unknown type", [{ type: "video" }], /^Tool content\[0\]\.type must be/],
  [
    "an image with a text MIME type",
    [{ type: "image", data: "AQID", mimeType: "text/plain" }],
    /^Tool content\[0\]\.mimeType must be an image\/… type: text\/plain$/,
  ],
  [
    "a MIME type that could break a data: URL",
    [{ type: "image", data: "AQID", mimeType: "image/png;x" }],
    /^Tool content\[0\]\.mimeType must be a MIME type/,
  ],
  [
    "data that is not base64",
    [{ type: "image", data: "not base64!", mimeType: "image/png" }],
    /^Tool content\[0\]\.data must be base64$/,
  ],
  [
    "a link without an absolute URI",
    [{ type: "resource_link", uri: "relative/x", name: "x" }],
    /^Tool content\[0\]\.uri must be an absolute URI$/,
  ],
];
for (const [what, parts, error] of BAD) {
  Deno.test(`checkContent() refuses ${what}`, () => {
    const checked = checkContent(parts);
    assert.equal(typeof checked, "string");
    assert.match(checked as string, error);
  });
}

Deno.test("content() throws the check's TypeError", () => {
  assert.throws(() => content(resourceLink("x", "y")), TypeError);
});

Deno.test("truncateResult() keeps head and tail within the bound, cut between characters", () => {
  const text = "é".repeat(10_000); // 20,000 bytes
  const cut = truncateResult(text, 3_000);
  const bytes = new TextEncoder().encode(cut.text).length;
  assert.ok(bytes <= 3_000, `${bytes}`);
  assert.ok(cut.text.startsWith("éé") && cut.text.endsWith("éé"));
  assert.ok(!cut.text.includes("\uFFFD"));
  assert.match(cut.text, new RegExp(`\\[… ${20_000 - cut.kept} of 20000 bytes left out here`));
});
