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
 * `result_parts`) — or null when they fit.
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
): RangeError | null {
  const { part, text } = params;
  if (typeof text === "string") {
    const bytes = utf8ByteLength(text);
    if (bytes > limits.result_part_bytes) {
      return new RangeError(
        `Tool result part exceeds the backend's result_part_bytes (${limits.result_part_bytes}): ${bytes} bytes`,
      );
    }
  }
  if (typeof part === "number" && part >= limits.result_parts) {
    return new RangeError(
      `Tool result part index exceeds the backend's result_parts (${limits.result_parts}): part ${part}`,
    );
  }
  return null;
}
