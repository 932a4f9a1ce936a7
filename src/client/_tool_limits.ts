/**
 * Checks of `client.tool.result` parts against the `client.tools` limits the backend
 * advertised in its initialization result (never copied constants: the spec says "A client
 * reads these limits from the result; it never relies on copied numbers").
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";
import type { ClientToolsLimitsObject } from "../protocol/schemas/client_tools.ts";

/**
 * Why the `client.tool.result` `params` break the advertised limits — a `RangeError` naming
 * the limit (a part's `text` over `result_part_bytes`, or a `part` index at or past
 * `result_parts`) — or null when they fit. With `ascii`, the caller knows the text is ASCII, so
 * its size is its length.
 *
 * @example
 * ```ts
 * import { checkAdvertisedResultPart } from "./_tool_limits.ts";
 * const limits = { result_part_bytes: 4, result_parts: 2 };
 * console.assert(checkAdvertisedResultPart({ part: 0, text: "abcd" }, limits) === null);
 * console.assert(checkAdvertisedResultPart({ part: 0, text: "abcde" }, limits) !== null);
 * console.assert(checkAdvertisedResultPart({ part: 2, text: "" }, limits) !== null);
 * ```
 */
export function checkAdvertisedResultPart(
  params: { readonly part?: unknown; readonly text?: unknown },
  limits: Pick<ClientToolsLimitsObject, "result_part_bytes" | "result_parts">,
  ascii = false,
): RangeError | null {
  const { part, text } = params;
  if (
    typeof text === "string" &&
    (ascii
      ? text.length > limits.result_part_bytes
      : !fitsUtf8Bytes(text, limits.result_part_bytes))
  ) {
    const bytes = utf8ByteLength(text);
    return new RangeError(
      `Tool result part exceeds the backend's result_part_bytes (${limits.result_part_bytes}): ${bytes} bytes`,
    );
  }
  if (typeof part === "number" && part >= limits.result_parts) {
    return new RangeError(
      `Tool result part index exceeds the backend's result_parts (${limits.result_parts}): part ${part}`,
    );
  }
  return null;
}

/** Largest limit {@link fitsUtf8Bytes} encodes into its reused buffer; above it, it counts. */
const SCRATCH_MAX_BYTES = 64 * 1024;
const encoder = new TextEncoder();
let scratch = new Uint8Array(0);

/**
 * Whether `text` is at most `limit` UTF-8 bytes (a lone surrogate counts as U+FFFD, 3 bytes,
 * as in `utf8ByteLength`): the same verdict as `utf8ByteLength(text) <= limit`, without a
 * second scan of every part's text. UTF-8 never has fewer bytes than UTF-16 units nor more
 * than three per unit, which settles most texts by their length; otherwise the text is
 * encoded into a reused buffer of `limit` bytes, and `encodeInto` stops before the first
 * character that does not fit, so the text fits exactly when all of it was read (measured:
 * bench/notes.md, "Round 3, second pass").
 */
export function fitsUtf8Bytes(text: string, limit: number): boolean {
  if (text.length > limit) return false;
  if (text.length * 3 <= limit) return true;
  if (limit > SCRATCH_MAX_BYTES) return utf8ByteLength(text) <= limit;
  if (scratch.length < limit) scratch = new Uint8Array(limit);
  return encoder.encodeInto(text, scratch.subarray(0, limit)).read === text.length;
}
