/**
 * The physical-limit peer: reads LF-terminated lines on stdin and writes each
 * complete line back on stdout, with no JSON or protocol work. Exits at EOF.
 *
 * Run: `deno run bench/harness/echo_child.ts`.
 *
 * @module
 */

import { LineSplitter } from "./lines.ts";

const LF = new Uint8Array([0x0a]);

if (import.meta.main) {
  const splitter = new LineSplitter();
  const out = Deno.stdout.writable.getWriter();
  for await (const chunk of Deno.stdin.readable) {
    const lines = splitter.push(chunk);
    if (lines.length === 0) continue;
    // One write per chunk: the lines it completed, each with its LF.
    let size = 0;
    for (const line of lines) size += line.length + 1;
    const batch = new Uint8Array(size);
    let at = 0;
    for (const line of lines) {
      batch.set(line, at);
      batch.set(LF, at + line.length);
      at += line.length + 1;
    }
    await out.write(batch);
  }
  await out.close().catch(() => {});
}
