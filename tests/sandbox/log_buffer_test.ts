import assert from "node:assert/strict";
import { LogBuffer } from "../../src/sandbox/log_buffer.ts";

Deno.test("LogBuffer keeps text up to its limit and marks the rest as truncated", () => {
  const buffer = new LogBuffer(10);
  buffer.append("12345\n");
  buffer.append("6789abcdef\n");
  const log = buffer.toLog("call-1", "t");
  assert.equal(log.text, "12345\n6789\n[… 7 bytes truncated]");
  assert.equal(log.bytes, 17);
  assert.equal(log.truncatedBytes, 7);
});

Deno.test("LogBuffer cuts only between characters and adds bytes dropped elsewhere", () => {
  const buffer = new LogBuffer(5);
  buffer.append("ab€€"); // 2 + 3 + 3 bytes: the second € does not fit
  buffer.addDropped(100);
  const log = buffer.toLog("call-1", "t");
  assert.equal(log.text, "ab€\n[… 103 bytes truncated]");
  assert.equal(log.truncatedBytes, 103);
});

Deno.test("LogBuffer is empty until something is written", () => {
  const buffer = new LogBuffer();
  assert.equal(buffer.empty, true);
  buffer.addDropped(0);
  assert.equal(buffer.empty, true);
  buffer.append("x");
  assert.equal(buffer.empty, false);
  assert.equal(buffer.toLog("c", "t").text, "x");
});
