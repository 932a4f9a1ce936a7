/**
 * The physical-limit peer: reads LF-terminated lines on stdin and writes each
 * complete line back on stdout, with no JSON or protocol work. Exits at EOF.
 *
 * Run: `deno run bench/harness/echo_child.ts`.
 *
 * @module
 */

import { readLinesInto, StdoutBox } from "./stdio.ts";

const LF = new Uint8Array([0x0a]);

if (import.meta.main) {
  // The fake backend's I/O (stdio.ts): the lines of one read go back in one write.
  const out = new StdoutBox(Deno.stdout);
  let lines: Uint8Array[] = [];
  let size = 0;
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    const batch = new Uint8Array(size);
    let at = 0;
    for (const line of lines) {
      batch.set(line, at);
      batch.set(LF, at + line.length);
      at += line.length + 1;
    }
    lines = [];
    size = 0;
    out.push(batch);
  };
  await readLinesInto(Deno.stdin, (line) => {
    // The view is only valid during the call: copy.
    lines.push(line.slice());
    size += line.length + 1;
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  });
  await out.flushed();
}
