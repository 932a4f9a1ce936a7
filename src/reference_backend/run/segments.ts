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
  const chunks: string[] = [];
  let current = "";
  let bytes = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) {
      chunks.push(current);
      current = "";
      bytes = 0;
    }
    current += char;
    bytes += size;
  }
  if (current !== "" || chunks.length === 0) chunks.push(current);
  return chunks;
}

function utf8Bytes(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code < 0x10000) return 3;
  return 4;
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
