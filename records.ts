/**
 * `@magi/tools/records`: the NDJSON summary records that `run` prints and
 * `runOneTurn` returns (`docs/summaries.md`): one interface per record `type`,
 * the {@link SummaryRecord} union, {@link parseRecord} to read a line back, and
 * the schema's constants.
 *
 * @example Read a summary stream
 * ```ts
 * import { parseRecord, type SummaryRecord } from "@magi/tools/records";
 *
 * const lines = [
 *   '{"type":"host.warning","ts":"2026-01-02T03:04:05Z","v":1,"code":"source_unavailable","message":"mcp:fs did not start"}',
 * ];
 * const records: SummaryRecord[] = lines.map(parseRecord);
 * for (const record of records) {
 *   if (record.type === "host.warning") console.assert(record.code === "source_unavailable");
 * }
 * ```
 *
 * @module
 */

export {
  ARGUMENTS_PREVIEW_BYTES,
  EXIT_REASONS,
  HOST_ERROR_CODES,
  parseRecord,
  SUMMARY_VERSION,
} from "./src/summary/records.ts";
export type {
  ActivityRecord,
  ApprovalRecord,
  BackendInfo,
  DiagnosticRecord,
  DistributiveOmit,
  HostErrorRecord,
  HostReadyRecord,
  HostReadyTool,
  HostWarningRecord,
  InputPersistedRecord,
  MessageDeltaRecord,
  MessageRecord,
  ProcessLimits,
  RecordHead,
  SessionRecord,
  SessionSelection,
  SummaryInput,
  SummaryRecord,
  ToolCallRecord,
  ToolCancelRecord,
  ToolLogRecord,
  ToolProgressRecord,
  ToolResultRecord,
  TurnFinishedRecord,
  TurnStartedRecord,
} from "./src/summary/records.ts";
export type { RecordErrorCode } from "./src/errors/codes.ts";
export type { Effort } from "./src/protocol/schemas/common.ts";
