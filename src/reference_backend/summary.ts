/**
 * Bounding of activity, approval and diagnostic summaries (1,024 UTF-8 bytes, no
 * control characters).
 *
 * @module
 */

import { SUMMARY_BYTES } from "../protocol/limits.ts";

const encoder = new TextEncoder();

/** `text` without control characters, cut at a code point to at most 1,024 UTF-8 bytes. */
export function boundSummary(text: string): string {
  // deno-lint-ignore no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, " ");
  if (encoder.encode(clean).byteLength <= SUMMARY_BYTES) return clean;
  let out = "";
  let bytes = 0;
  for (const char of clean) {
    const size = encoder.encode(char).byteLength;
    if (bytes + size > SUMMARY_BYTES) break;
    out += char;
    bytes += size;
  }
  return out;
}
