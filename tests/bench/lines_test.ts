import assert from "node:assert/strict";
import { LineSplitter, readLines } from "../../bench/harness/lines.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function texts(lines: Uint8Array[]): string[] {
  return lines.map((line) => decoder.decode(line));
}

Deno.test("LineSplitter gives the same lines for any chunking", () => {
  const bytes = encoder.encode('{"a":1}\n\n{"b":22}\nxyz\n');
  const expected = ['{"a":1}', "", '{"b":22}', "xyz"];
  for (let size = 1; size <= bytes.length; size++) {
    const splitter = new LineSplitter();
    const lines: string[] = [];
    for (let at = 0; at < bytes.length; at += size) {
      lines.push(...texts(splitter.push(bytes.subarray(at, at + size))));
    }
    assert.deepEqual(lines, expected, `chunk size ${size}`);
    assert.equal(splitter.partialBytes, 0);
  }
});

Deno.test("LineSplitter holds a partial line until its LF arrives", () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push(encoder.encode("ab")), []);
  assert.equal(splitter.partialBytes, 2);
  assert.deepEqual(texts(splitter.push(encoder.encode("c\nd"))), ["abc"]);
  assert.equal(splitter.partialBytes, 1);
});

Deno.test("readLines() drops a trailing partial line", async () => {
  const lines: string[] = [];
  for await (const line of readLines(new Blob(["one\ntwo\nthr"]).stream())) {
    lines.push(decoder.decode(line));
  }
  assert.deepEqual(lines, ["one", "two"]);
});
