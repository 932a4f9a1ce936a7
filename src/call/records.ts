/**
 * What the `tool.*` summary records carry of a call: its argument preview.
 *
 * @module
 */

import { ARGUMENTS_PREVIEW_BYTES } from "../summary/constants.ts";
import { truncateText } from "../text/bounded.ts";

export { ARGUMENTS_PREVIEW_BYTES };

/** Compact JSON of a call's arguments, cut to {@link ARGUMENTS_PREVIEW_BYTES} (ends with "…" when cut). */
export function argumentsPreview(args: unknown): string {
  return truncateText(JSON.stringify(args) ?? "null", ARGUMENTS_PREVIEW_BYTES);
}
