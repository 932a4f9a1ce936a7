/**
 * Assistant content: UTF-8 chunking at code-point boundaries and the per-run budget
 * (8 MiB, 512 segments; exceeding either fails the run with `content_limit`).
 *
 * @module
 */

import { RUN_CONTENT_BYTES, RUN_CONTENT_SEGMENTS } from "../../protocol/limits.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** Split `text` into chunks of at most `maxBytes` UTF-8 bytes, never inside a code point. */
export function splitUtf8(text: string, maxBytes: number): string[] {
  if (maxBytes < 4) throw new RangeError(`Chunk size must be at least 4 bytes: ${maxBytes}`);
  // One pass over the code points, slicing the chunks out of `text` (no string built per
  // character: megabytes of text split in milliseconds, not seconds).
  const chunks: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let at = 0; at < text.length;) {
    const code = text.codePointAt(at)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes) {
      chunks.push(text.slice(start, at));
      start = at;
      bytes = 0;
    }
    bytes += size;
    at += code > 0xffff ? 2 : 1;
  }
  if (start < text.length || chunks.length === 0) chunks.push(text.slice(start));
  return chunks;
}

/** The assistant content budget of one run. */
export class ContentBudget {
  #bytes = 0;
  #segments = 0;

  /** Admit one more segment of `text`; false when it would exceed the run's bounds. */
  admit(text: string): boolean {
    const bytes = utf8ByteLength(text);
    if (this.#segments + 1 > RUN_CONTENT_SEGMENTS) return false;
    if (this.#bytes + bytes > RUN_CONTENT_BYTES) return false;
    this.#segments++;
    this.#bytes += bytes;
    return true;
  }
}
