/**
 * The summary records' constants, without their schemas (`records.ts`), so
 * the host can use them without building the schemas.
 *
 * @module
 */

import { RECORD_ERROR_CODES } from "../errors/codes.ts";

/** Summary schema version. */
export const SUMMARY_VERSION = 1;

/** Most UTF-8 bytes of a `tool.call` record's `arguments_preview`. */
export const ARGUMENTS_PREVIEW_BYTES = 200;

/**
 * Why `turn.finished`'s `exit_code` differs from what its `outcome` implies:
 * `tool_errors` (`--fail-on-tool-error` and a tool call ended in error or was
 * denied), `last_message_unwritable` (the `--last-message` file could not be
 * written), `summary_output_failed` (stdout could not be written).
 */
export const EXIT_REASONS = [
  "tool_errors",
  "last_message_unwritable",
  "summary_output_failed",
] as const;

/**
 * Host error codes of `host.error`: the error model's record codes (`src/errors/codes.ts`),
 * one list for both.
 */
export const HOST_ERROR_CODES: typeof RECORD_ERROR_CODES = RECORD_ERROR_CODES;

/**
 * The catalog's own client tools (`toolset/catalog.ts`), registered past 32 tools: their
 * `activity` events are client tool calls, not backend built-ins, whatever `host.ready` lists.
 */
export const CATALOG_TOOL_NAMES: readonly string[] = Object.freeze([
  "tool_search",
  "tool_call",
  "tool_call_write",
]);
