/**
 * Byte- and count-bounded pages over a snapshot: a page holds as many items as fit both
 * the entry limit and the serialized result budget, never fewer than one when the first
 * item fits at all. Results carry their wrapper, so the budget is measured on the whole
 * serialized result with the longest possible cursor.
 *
 * @module
 */

import { ID_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";

/** UTF-8 bytes of `value` serialized as JSON. */
export function jsonBytes(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value));
}

/** A placeholder as long as the longest cursor, for measuring a result. */
export const CURSOR_PLACEHOLDER = "c".repeat(ID_BYTES);

/**
 * How many of `sizes` (serialized bytes of each item), starting at `from`, fit one page:
 * at most `maxItems`, and `wrapperBytes` (the result with an empty list) plus the items
 * and their commas at most `maxBytes`. Zero means the first item alone does not fit.
 */
export function pageLength(
  sizes: readonly number[],
  from: number,
  bounds: { maxItems: number; maxBytes: number; wrapperBytes: number },
): number {
  let bytes = bounds.wrapperBytes;
  let count = 0;
  for (let i = from; i < sizes.length && count < bounds.maxItems; i++) {
    const next = bytes + (sizes[i] as number) + (count === 0 ? 0 : 1);
    if (next > bounds.maxBytes) break;
    bytes = next;
    count++;
  }
  return count;
}

/** A short random hex tag for opaque revisions. */
export function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
