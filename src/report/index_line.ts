/**
 * Checking one line of a batch output folder's `index.jsonl` before `report` uses it. The
 * folders `report` reads may come from elsewhere (CI shard artifacts, a committed `out/`), so
 * every line is checked field by field against {@link IndexEntry}; a line that does not fit is
 * refused with a `report_input` host error naming the file, the line and the field. Keys this
 * version does not know are ignored (a newer batch may add some); they are never shown.
 *
 * @example
 * ```ts
 * import { parseIndexLine } from "./index_line.ts";
 * const entry = parseIndexLine(
 *   '{"id":"a","outcome":"completed","exit_code":0,"started_at":"2026-12-01T10:00:00.000Z",' +
 *     '"duration_ms":5,"tool_calls":{"success":1,"error":0,"cancelled":0},' +
 *     '"last_message":null,"session_id":null,"error":null}',
 *   "out/index.jsonl:1",
 * );
 * console.assert(entry.exit_code === 0);
 * let refused = "";
 * try {
 *   parseIndexLine('{"id":"a","exit_code":"<img>"}', "out/index.jsonl:2");
 * } catch (error) {
 *   refused = (error as Error).message;
 * }
 * console.assert(refused.includes("out/index.jsonl:2: outcome"));
 * ```
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";
import type { IndexEntry, ToolCallCounts } from "../batch/index_entry.ts";
import { ITEM_ID_PATTERN } from "../batch/input.ts";

/** Largest exit code an index line may hold (a process exit status). */
const MAX_EXIT_CODE = 255;
/** Longest excerpt of a refused value in a message, characters. */
const SHOWN_CHARS = 60;
const OUTCOMES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled", "error"]);
const COUNTS = ["success", "error", "cancelled"] as const;

/** A value for a message: its JSON, cut visibly. */
function shown(value: unknown): string {
  const json = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return json.length > SHOWN_CHARS ? `${json.slice(0, SHOWN_CHARS - 1)}…` : json;
}

function invalid(
  where: string,
  field: string,
  rule: string,
  value: unknown,
): HostError<"report_input"> {
  return new HostError(
    "report_input",
    `Invalid index line: ${where}: ${field} must be ${rule} (got ${shown(value)})`,
  );
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function stringOrNull(
  record: Record<string, unknown>,
  field: string,
  where: string,
): string | null {
  const value = record[field];
  if (value === null || typeof value === "string") return value;
  throw invalid(where, field, "a string or null", value);
}

/**
 * Parse and check one index line (`where` is `FILE:LINE`, used in messages).
 *
 * @throws {HostError} `report_input`: not JSON, not an object, or a field of the wrong type or
 * value, naming `where` and the field.
 */
export function parseIndexLine(line: string, where: string): IndexEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new HostError(
      "report_input",
      `Invalid index line: ${where}: not JSON: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new HostError("report_input", `Invalid index line: ${where}: not a JSON object`);
  }
  const record = value as Record<string, unknown>;
  const { id, outcome, exit_code, exit_reason, started_at, duration_ms } = record;
  if (typeof id !== "string" || !ITEM_ID_PATTERN.test(id) || /^\.+$/.test(id)) {
    throw invalid(where, "id", `an item id (${ITEM_ID_PATTERN.source}, not only dots)`, id);
  }
  if (typeof outcome !== "string" || !OUTCOMES.has(outcome)) {
    throw invalid(where, "outcome", `one of ${[...OUTCOMES].join(", ")}`, outcome);
  }
  if (!isCount(exit_code) || exit_code > MAX_EXIT_CODE) {
    throw invalid(where, "exit_code", `an integer from 0 to ${MAX_EXIT_CODE}`, exit_code);
  }
  if (exit_reason !== undefined && typeof exit_reason !== "string") {
    throw invalid(where, "exit_reason", "a string when present", exit_reason);
  }
  if (typeof started_at !== "string" || !Number.isFinite(Date.parse(started_at))) {
    throw invalid(where, "started_at", "an ISO 8601 date string", started_at);
  }
  if (typeof duration_ms !== "number" || !Number.isFinite(duration_ms) || duration_ms < 0) {
    throw invalid(where, "duration_ms", "a number of milliseconds, at least 0", duration_ms);
  }
  const calls = record.tool_calls;
  if (typeof calls !== "object" || calls === null || Array.isArray(calls)) {
    throw invalid(where, "tool_calls", "an object of counts", calls);
  }
  const counts = calls as Record<string, unknown>;
  for (const key of COUNTS) {
    if (!isCount(counts[key])) {
      throw invalid(where, `tool_calls.${key}`, "an integer, at least 0", counts[key]);
    }
  }
  // `denied` came with the write-tool records; a folder written before it has none (0).
  const denied = counts.denied ?? 0;
  if (!isCount(denied)) {
    throw invalid(where, "tool_calls.denied", "an integer, at least 0", denied);
  }
  const toolCalls = {
    ...Object.fromEntries(COUNTS.map((key) => [key, counts[key]])),
    denied,
  } as unknown;
  const attempt = record.attempt;
  if (attempt !== undefined && (!isCount(attempt) || attempt < 1)) {
    throw invalid(where, "attempt", "an integer, at least 1, when present", attempt);
  }
  return {
    id,
    outcome: outcome as IndexEntry["outcome"],
    exit_code,
    ...(exit_reason === undefined ? {} : { exit_reason }),
    started_at,
    duration_ms,
    tool_calls: toolCalls as ToolCallCounts,
    ...(attempt === undefined ? {} : { attempt: attempt as number }),
    last_message: stringOrNull(record, "last_message", where),
    session_id: stringOrNull(record, "session_id", where),
    error: stringOrNull(record, "error", where),
  };
}
