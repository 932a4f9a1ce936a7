/**
 * Cutting and splitting text by UTF-8 bytes, never inside a code point. Sizes follow
 * `utf8ByteLength`: a lone surrogate counts as U+FFFD, 3 bytes, and is one unit to cut around.
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";

/** Options of {@link cutUtf8}. */
export interface CutOptions {
  /** Appended when anything was cut, counted in the bound (e.g. `"…"`). */
  readonly ellipsis?: string;
}

/**
 * `text` as is when it fits `maxBytes` UTF-8 bytes, else its longest prefix of whole code points
 * that fits, followed by `ellipsis` (whose bytes count in the bound) when one is given. When even
 * the ellipsis does not fit, the result is the ellipsis alone.
 *
 * @example
 * ```ts
 * import { cutUtf8 } from "./utf8.ts";
 * console.assert(cutUtf8("aé", 2) === "a");
 * console.assert(cutUtf8("abcdef", 5, { ellipsis: "…" }) === "ab…");
 * ```
 */
export function cutUtf8(text: string, maxBytes: number, options: CutOptions = {}): string {
  if (utf8ByteLength(text) <= maxBytes) return text;
  const ellipsis = options.ellipsis ?? "";
  return text.slice(0, utf8PrefixLength(text, maxBytes - utf8ByteLength(ellipsis))) + ellipsis;
}

/**
 * Length in UTF-16 units of the longest prefix of `text` made of whole code points that takes at
 * most `maxBytes` UTF-8 bytes (0 when `maxBytes` is below the first code point's size).
 */
export function utf8PrefixLength(text: string, maxBytes: number): number {
  let bytes = 0;
  let at = 0;
  while (at < text.length) {
    const size = codePointBytes(text.codePointAt(at)!);
    if (bytes + size > maxBytes) break;
    bytes += size;
    at += size === 4 ? 2 : 1;
  }
  return at;
}

/**
 * `text` in chunks of at most `maxBytes` UTF-8 bytes each, never inside a code point; each chunk
 * is as long as it can be (`[""]` for `""`).
 *
 * @throws {RangeError} when `maxBytes` is below 4, the size of the largest code point.
 */
export function splitUtf8(text: string, maxBytes: number): string[] {
  if (maxBytes < 4) throw new RangeError(`Chunk size must be at least 4 bytes: ${maxBytes}`);
  // One pass over the code points, slicing the chunks out of `text` (no string built per
  // character: megabytes of text split in milliseconds, not seconds).
  const chunks: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let at = 0; at < text.length;) {
    const size = codePointBytes(text.codePointAt(at)!);
    if (bytes + size > maxBytes) {
      chunks.push(text.slice(start, at));
      start = at;
      bytes = 0;
    }
    bytes += size;
    at += size === 4 ? 2 : 1;
  }
  if (start < text.length || chunks.length === 0) chunks.push(text.slice(start));
  return chunks;
}

/**
 * UTF-8 bytes of the code point `code` (a lone surrogate, as U+FFFD: 3). Only a code point
 * above U+FFFF, two UTF-16 units, takes 4.
 */
function codePointBytes(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}
