/**
 * One line of `DIR/index.jsonl`: a finished item, derived from its summary
 * records alone (so a lost index line can be rebuilt from `items/<id>.ndjson`).
 *
 * @module
 */

/** Tool calls of an item by outcome. */
export interface ToolCallCounts {
  /** `tool.result` with outcome `success`. */
  success: number;
  /** `tool.result` with outcome `error`. */
  error: number;
  /** `tool.result` with outcome `cancelled`. */
  cancelled: number;
  /** Write-tool calls refused (`approval` with decision `deny`): never run, no `tool.result`. */
  denied: number;
}

/** A finished item as `index.jsonl` records it. */
export interface IndexEntry {
  /** The item's id. */
  id: string;
  /**
   * `completed`, `failed` or `cancelled` (the turn's `run.finished`), or `error` (the host
   * stopped with a `host.error` before or during the turn).
   */
  outcome: "completed" | "failed" | "cancelled" | "error";
  /** The exit code `run` would have given for this item. */
  exit_code: number;
  /**
   * Why `exit_code` is not the one `outcome` implies, as `turn.finished` says it
   * (`tool_errors` with `--fail-on-tool-error`, `summary_output_failed`); absent otherwise.
   */
  exit_reason?: string;
  /**
   * Which start of the item this result is: 1, or more when it ran again (after a kill
   * interrupted it, or `--retry-failed`). From its `turn.started` record; absent when the
   * item has none (it failed before its turn started, in a folder written before attempts
   * were counted).
   */
  attempt?: number;
  /** When the item started (ISO 8601). */
  started_at: string;
  /** From the item's start to its last record, ms. */
  duration_ms: number;
  /** Tool calls by outcome. */
  tool_calls: ToolCallCounts;
  /** The final assistant message, or null. */
  last_message: string | null;
  /** The item's session, or null when none was created or opened. */
  session_id: string | null;
  /**
   * Why it did not complete (`host.error` code and message, or the run's error code), or why
   * its exit code is not 0 (`tool_errors: first: <tool>: <error_code>`, the first failed or
   * denied call), or null.
   */
  error: string | null;
}

/** A summary record as parsed JSON (only the fields read here are typed). */
export type RecordLike = Record<string, unknown> & { type?: unknown };

/** Parse an NDJSON text into records; a line that is not a JSON object is skipped. */
export function parseRecords(text: string): RecordLike[] {
  const records: RecordLike[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        records.push(value as RecordLike);
      }
    } catch {
      // Not a record: skipped (item files are written whole, so this is a foreign file).
    }
  }
  return records;
}

/**
 * The index entry of item `id` from its records; `startedAt`/`durationMs` default to the
 * first record's `ts` and the span to the last one.
 *
 * @example
 * ```ts
 * import { entryFromRecords } from "./index_entry.ts";
 * const entry = entryFromRecords("a", [
 *   { type: "session", session_id: "s1", ts: "2026-01-01T00:00:00.000Z" },
 *   { type: "turn.finished", outcome: "completed", exit_code: 0, error_code: null, ts: "2026-01-01T00:00:01.000Z" },
 * ]);
 * console.assert(entry.outcome === "completed" && entry.duration_ms === 1000);
 * ```
 */
export function entryFromRecords(
  id: string,
  records: readonly RecordLike[],
  timing?: { startedAt: Date; durationMs: number },
): IndexEntry {
  const counts: ToolCallCounts = { success: 0, error: 0, cancelled: 0, denied: 0 };
  let firstError: string | null = null;
  let sessionId: string | null = null;
  let lastMessage: string | null = null;
  let outcome: IndexEntry["outcome"] = "error";
  let exitCode = 1;
  let error: string | null = "No turn.finished or host.error record";
  let exitReason: string | undefined;
  let attempt: number | undefined;
  for (const record of records) {
    switch (record.type) {
      case "turn.started":
        if (typeof record.attempt === "number") attempt = record.attempt;
        break;
      case "session":
        if (typeof record.session_id === "string") sessionId = record.session_id;
        break;
      case "message":
        if (typeof record.text === "string") lastMessage = record.text;
        break;
      case "tool.result":
        // A call the person refused when it arrived (`approval_denied`) has its `approval`
        // record (deny), counted there: it is a denial, not a tool error.
        if (record.error_code === "approval_denied") break;
        if (
          record.outcome === "success" || record.outcome === "error" ||
          record.outcome === "cancelled"
        ) counts[record.outcome]++;
        if (record.outcome === "error") {
          firstError ??= `${String(record.name)}: ${String(record.error_code ?? "error")}`;
        }
        break;
      case "activity":
        // A built-in tool that failed counts for --fail-on-tool-error as a tool error does.
        if (record.state === "failed") firstError ??= `${String(record.name)}: failed`;
        break;
      case "approval":
        if (record.decision === "deny") {
          counts.denied++;
          firstError ??= `denied (${String(record.decided_by)}): ${String(record.summary)}`;
        }
        break;
      case "turn.finished": {
        const finished = record.outcome;
        outcome = finished === "completed" || finished === "failed" || finished === "cancelled"
          ? finished
          : "error";
        exitCode = typeof record.exit_code === "number" ? record.exit_code : 1;
        exitReason = typeof record.exit_reason === "string" ? record.exit_reason : undefined;
        error = outcome === "completed"
          ? exitReason === undefined
            ? null
            : firstError === null
            ? exitReason
            : `${exitReason}: first: ${firstError}`
          : typeof record.error_code === "string"
          ? record.error_code
          : outcome === "cancelled"
          ? `cancelled${
            typeof record.cancelled_by === "string" ? ` by ${record.cancelled_by}` : ""
          }`
          : outcome;
        break;
      }
      case "host.error":
        outcome = "error";
        exitReason = undefined;
        exitCode = typeof record.exit_code === "number" ? record.exit_code : 1;
        error = `${String(record.code)}: ${String(record.message)}`;
        break;
    }
  }
  const times = records.map((r) => Date.parse(String(r.ts))).filter((t) => Number.isFinite(t));
  const first = times.length > 0 ? Math.min(...times) : 0;
  const last = times.length > 0 ? Math.max(...times) : 0;
  return {
    id,
    outcome,
    exit_code: exitCode,
    ...(exitReason === undefined ? {} : { exit_reason: exitReason }),
    ...(attempt === undefined ? {} : { attempt }),
    started_at: (timing?.startedAt ?? new Date(first)).toISOString(),
    duration_ms: timing?.durationMs ?? last - first,
    tool_calls: counts,
    last_message: lastMessage,
    session_id: sessionId,
    error,
  };
}
