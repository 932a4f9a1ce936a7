/**
 * The host's NDJSON summary records (`docs/summaries.md`): their types (`record_types.ts`,
 * re-exported), each record's zod strict schema typed as its type (internal: the library's
 * users read records with `parseRecord`, `@magi/tools/records`), and `parseRecord`.
 *
 * Importing this module builds every schema; the host's run path does not
 * import it (its writer checks records against the same schemas, built on
 * first use, only with `MAGI_TOOLS_SELF_CHECK=1`).
 *
 * @module
 */

import type { z } from "zod";
import { recordSchemas } from "./_record_schemas.ts";
import type {
  ActivityRecord,
  ApprovalRecord,
  DiagnosticRecord,
  HostErrorRecord,
  HostReadyRecord,
  HostWarningRecord,
  InputPersistedRecord,
  MessageDeltaRecord,
  MessageRecord,
  SessionRecord,
  SessionSelection,
  SummaryRecord,
  ToolCallRecord,
  ToolCancelRecord,
  ToolLogRecord,
  ToolProgressRecord,
  ToolResultRecord,
  TurnFinishedRecord,
  TurnStartedRecord,
} from "./record_types.ts";

export type * from "./record_types.ts";

export {
  ARGUMENTS_PREVIEW_BYTES,
  EXIT_REASONS,
  HOST_ERROR_CODES,
  SUMMARY_VERSION,
} from "./constants.ts";

// The schemas (internal), built when this module loads; the host's own writer builds them only
// when it self-checks (`_record_schemas.ts`). Each is typed as its record type, written once:
// tests/summary/record_types_test.ts pins the built schemas' types to the record types.
const schemas = recordSchemas();

/** Schema of {@link HostReadyRecord}. */
export const HostReadyRecordSchema: z.ZodType<HostReadyRecord> = schemas.HostReadyRecordSchema;
/** Schema of {@link SessionSelection}. */
export const SessionSelectionSchema: z.ZodType<SessionSelection> = schemas.SessionSelectionSchema;
/** Schema of {@link SessionRecord}. */
export const SessionRecordSchema: z.ZodType<SessionRecord> = schemas.SessionRecordSchema;
/** Schema of {@link TurnStartedRecord}. */
export const TurnStartedRecordSchema: z.ZodType<TurnStartedRecord> =
  schemas.TurnStartedRecordSchema;
/** Schema of {@link InputPersistedRecord}. */
export const InputPersistedRecordSchema: z.ZodType<InputPersistedRecord> =
  schemas.InputPersistedRecordSchema;
/** Schema of {@link MessageRecord}. */
export const MessageRecordSchema: z.ZodType<MessageRecord> = schemas.MessageRecordSchema;
/** Schema of {@link MessageDeltaRecord}. */
export const MessageDeltaRecordSchema: z.ZodType<MessageDeltaRecord> =
  schemas.MessageDeltaRecordSchema;
/** Schema of {@link ActivityRecord}. */
export const ActivityRecordSchema: z.ZodType<ActivityRecord> = schemas.ActivityRecordSchema;
/** Schema of {@link ApprovalRecord}. */
export const ApprovalRecordSchema: z.ZodType<ApprovalRecord> = schemas.ApprovalRecordSchema;
/** Schema of {@link ToolCallRecord}. */
export const ToolCallRecordSchema: z.ZodType<ToolCallRecord> = schemas.ToolCallRecordSchema;
/** Schema of {@link ToolResultRecord}. */
export const ToolResultRecordSchema: z.ZodType<ToolResultRecord> = schemas.ToolResultRecordSchema;
/** Schema of {@link ToolLogRecord}. */
export const ToolLogRecordSchema: z.ZodType<ToolLogRecord> = schemas.ToolLogRecordSchema;
/** Schema of {@link ToolProgressRecord}. */
export const ToolProgressRecordSchema: z.ZodType<ToolProgressRecord> =
  schemas.ToolProgressRecordSchema;
/** Schema of {@link HostWarningRecord}. */
export const HostWarningRecordSchema: z.ZodType<HostWarningRecord> =
  schemas.HostWarningRecordSchema;
/** Schema of {@link ToolCancelRecord}. */
export const ToolCancelRecordSchema: z.ZodType<ToolCancelRecord> = schemas.ToolCancelRecordSchema;
/** Schema of {@link DiagnosticRecord}. */
export const DiagnosticRecordSchema: z.ZodType<DiagnosticRecord> = schemas.DiagnosticRecordSchema;
/** Schema of {@link TurnFinishedRecord}. */
export const TurnFinishedRecordSchema: z.ZodType<TurnFinishedRecord> =
  schemas.TurnFinishedRecordSchema;
/** Schema of {@link HostErrorRecord}. */
export const HostErrorRecordSchema: z.ZodType<HostErrorRecord> = schemas.HostErrorRecordSchema;
/** Schema of {@link SummaryRecord}: any record, by its `type`. */
export const SummaryRecordSchema: z.ZodType<SummaryRecord> = schemas.SummaryRecordSchema;

/**
 * Read one summary record: a line of the NDJSON stream (a string) or its parsed JSON value.
 * Throws `SyntaxError` for a line that is not JSON and `TypeError` naming the problems for a
 * value that is not a version-1 record of a known `type` with exactly its fields.
 *
 * @example
 * ```ts
 * import { parseRecord } from "./records.ts";
 * const record = parseRecord('{"type":"host.warning","ts":"2026-01-02T03:04:05Z","v":1,"code":"x","message":"m"}');
 * console.assert(record.type === "host.warning");
 * ```
 */
export function parseRecord(line: unknown): SummaryRecord {
  const value = typeof line === "string" ? JSON.parse(line) : line;
  const parsed = schemas.SummaryRecordSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) =>
    `${issue.path.length > 0 ? issue.path.join(".") : "record"}: ${issue.message}`
  );
  throw new TypeError(`Not a summary record: ${problems.join("; ")}`);
}
