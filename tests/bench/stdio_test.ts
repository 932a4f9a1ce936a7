import assert from "node:assert/strict";
import { readLinesInto, StdoutBox } from "../../bench/harness/stdio.ts";

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("readLinesInto() joins lines split across reads and drops a trailing partial line", async () => {
  const reads = ["ab", "c\nd", "\n\nef\ngh"].map(encode);
  const source = {
    read: (buffer: Uint8Array) => {
      const next = reads.shift();
      if (next === undefined) return Promise.resolve(null);
      buffer.set(next);
      return Promise.resolve(next.length);
    },
  };
  const lines: string[] = [];
  await readLinesInto(source, (line) => lines.push(decode(line)));
  assert.deepEqual(lines, ["abc", "d", "", "ef"]);
});

Deno.test("StdoutBox completes partial writes, keeps order and coalesces queued chunks", async () => {
  const writes: string[] = [];
  let release: (() => void) | null = null;
  const sink = {
    // Writes at most 3 bytes; the first write waits until released, so later pushes queue up.
    write: async (bytes: Uint8Array) => {
      if (release === null && writes.length === 0) {
        await new Promise<void>((resolve) => (release = resolve));
      }
      const n = Math.min(3, bytes.length);
      writes.push(decode(bytes.subarray(0, n)));
      return n;
    },
  };
  const box = new StdoutBox(sink);
  box.push(encode("hello"));
  box.push(encode("ab"));
  box.push(encode("cd"));
  (release as (() => void) | null)?.();
  await box.flushed();
  assert.equal(writes.join(""), "helloabcd");
  // "hello" in two writes, then "ab" + "cd" coalesced into one 4-byte batch (two writes of ≤ 3).
  assert.deepEqual(writes, ["hel", "lo", "abc", "d"]);
});

Deno.test("StdoutBox drops everything after a failed write", async () => {
  let calls = 0;
  const box = new StdoutBox({
    write: () => {
      calls++;
      return Promise.reject(new Error("EPIPE"));
    },
  });
  box.push(encode("a"));
  await box.flushed();
  box.push(encode("b"));
  await box.flushed();
  assert.equal(calls, 1);
});
