/**
 * The physical-limit peer: reads LF-terminated lines on stdin and writes each
 * complete line back on stdout, with no JSON or protocol work. Exits at EOF.
 *
 * With `--answer-bytes=N` it answers each line with a line of N bytes (LF
 * included) instead of echoing it: a backend's short answer to a result part
 * ({@link ./echo_parent.ts}'s result mode).
 *
 * Run: `deno run bench/harness/echo_child.ts [--answer-bytes=N]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { readLinesInto, StdoutBox } from "./stdio.ts";

const LF = new Uint8Array([0x0a]);

/** The line answering each line read with `--answer-bytes=N`, without its LF; null without. */
export function answerLine(args: readonly string[]): Uint8Array | null {
  const { values } = parseArgs({
    args: [...args],
    options: { "answer-bytes": { type: "string" } },
  });
  const raw = values["answer-bytes"];
  if (raw === undefined) return null;
  const bytes = Number(raw);
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new RangeError(`--answer-bytes must be a positive integer: ${raw}`);
  }
  return new Uint8Array(bytes - 1).fill(0x61);
}

if (import.meta.main) {
  const answer = answerLine(Deno.args);
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
    const back = answer ?? line.slice();
    lines.push(back);
    size += back.length + 1;
    if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  });
  await out.flushed();
}
