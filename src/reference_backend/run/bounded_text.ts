/**
 * Bounding of activity, approval and diagnostic summaries (1,024 UTF-8 bytes, no
 * control characters).
 *
 * @module
 */

import { SUMMARY_BYTES } from "../../protocol/limits.ts";
import { replaceControl } from "../../text/control.ts";
import { cutUtf8 } from "../../text/utf8.ts";

/** `text` without control characters, cut at a code point to at most 1,024 UTF-8 bytes. */
export function boundSummary(text: string): string {
  return boundUtf8(text, SUMMARY_BYTES);
}

/** `text` well-formed, without control characters, cut at a code point to `maxBytes`. */
export function boundUtf8(text: string, maxBytes: number): string {
  return cutUtf8(replaceControl(text.toWellFormed(), " "), maxBytes);
}
