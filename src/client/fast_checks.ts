/**
 * Fast acceptance checks for the frames of the tool-call hot path
 * (`client.tool.call` and `client.tool.cancel` event data, the
 * `client.tool.result` result), written by hand from their strict zod
 * schemas. Each check is sound, not complete: `true` only when the strict
 * schema accepts the value as it is; `false` means "not decided here", and
 * the caller then validates with the zod schema, which decides and describes
 * the failure. So validation stays fail-closed and exact, and the common,
 * valid frame skips zod.
 *
 * @module
 */

import { isWireId } from "../protocol/envelope.ts";
import type { JsonValue } from "../protocol/json.ts";
import { CLIENT_TOOLS_LIMITS } from "../protocol/limits.ts";
import { TOOL_NAME_PATTERN } from "../protocol/schemas/client_tools.ts";
import { HEX64_PATTERN, SESSION_ID_PATTERN } from "../protocol/schemas/common.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";

/** A value parsed from JSON (plain objects and arrays only). */
type Parsed = JsonValue | undefined;

function isPlainObject(value: Parsed): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` has exactly `count` own keys (JSON objects have no symbol keys). */
function hasKeyCount(value: object, count: number): boolean {
  let n = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false; // A polluted prototype: let zod decide.
    n++;
  }
  return n === count;
}

function isSessionId(value: Parsed): boolean {
  return typeof value === "string" && SESSION_ID_PATTERN.test(value);
}

/**
 * `client.tool.call` data as `clientToolCallDataSchema(argumentsBytes)` accepts it:
 * exactly `session_id`, `run_id`, `call_id`, `name`, `tool_id`, `arguments` (an
 * object of at most `argumentsBytes` serialized bytes: the backend's advertised
 * `arguments_bytes`) and `deadline_ms` (a safe integer ≥ 0).
 */
export function isClientToolCallData(
  value: Parsed,
  argumentsBytes: number = CLIENT_TOOLS_LIMITS.arguments_bytes,
): boolean {
  if (!isPlainObject(value) || !hasKeyCount(value, 7)) return false;
  const args = value.arguments;
  const deadline = value.deadline_ms;
  return isSessionId(value.session_id) && isWireId(value.run_id) && isWireId(value.call_id) &&
    typeof value.name === "string" && TOOL_NAME_PATTERN.test(value.name) &&
    typeof value.tool_id === "string" && HEX64_PATTERN.test(value.tool_id) &&
    typeof deadline === "number" && Number.isSafeInteger(deadline) && deadline >= 0 &&
    isPlainObject(args) && !Object.hasOwn(args, "__proto__") &&
    utf8ByteLength(JSON.stringify(args)) <= argumentsBytes;
}

const CANCEL_REASONS: ReadonlySet<string> = new Set([
  "run_cancelled",
  "deadline",
  "shutdown",
  "run_failed",
]);

/** `client.tool.cancel` data as `ClientToolCancelDataSchema` accepts it. */
export function isClientToolCancelData(value: Parsed): boolean {
  if (!isPlainObject(value) || !hasKeyCount(value, 4)) return false;
  const reason = value.reason;
  return isSessionId(value.session_id) && isWireId(value.run_id) && isWireId(value.call_id) &&
    typeof reason === "string" && CANCEL_REASONS.has(reason);
}

/** The `client.tool.result` result as `ClientToolResultResultSchema` accepts it, exactly. */
export function isClientToolResultResult(value: Parsed): boolean {
  return isPlainObject(value) && hasKeyCount(value, 2) && value.recorded === true &&
    typeof value.complete === "boolean";
}

/** Fast checks of event data by event name (others: zod only). */
export const FAST_EVENT_CHECKS: ReadonlyMap<string, (value: Parsed) => boolean> = new Map([
  ["client.tool.call", (value) => isClientToolCallData(value)],
  ["client.tool.cancel", isClientToolCancelData],
]);

/** Fast checks of results by method (others: zod only). */
export const FAST_RESULT_CHECKS: ReadonlyMap<string, (value: Parsed) => boolean> = new Map([
  ["client.tool.result", isClientToolResultResult],
]);
