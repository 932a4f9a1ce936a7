/**
 * Bounding of activity, approval and diagnostic summaries (1,024 UTF-8 bytes, no
 * control characters).
 *
 * @module
 */

import { SUMMARY_BYTES } from "../../protocol/limits.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** `text` without control characters, cut at a code point to at most 1,024 UTF-8 bytes. */
export function boundSummary(text: string): string {
  return boundUtf8(text, SUMMARY_BYTES);
}

/** `text` well-formed, without control characters, cut at a code point to `maxBytes`. */
export function boundUtf8(text: string, maxBytes: number): string {
  // deno-lint-ignore no-control-regex
  const clean = text.toWellFormed().replace(/[\u0000-\u001f\u007f-\u009f]/g, " ");
  if (utf8ByteLength(clean) <= maxBytes) return clean;
  let out = "";
  let bytes = 0;
  for (const char of clean) {
    const size = utf8ByteLength(char);
    if (bytes + size > maxBytes) break;
    out += char;
    bytes += size;
  }
  return out;
}
