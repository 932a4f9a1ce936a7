/**
 * Each summary record is written once as a type (`src/summary/record_types.ts`); its schema is
 * built in `_record_schemas.ts` and exported typed as that type. These type-level checks
 * compare the type zod infers from each built schema with its record type, both ways, so a field
 * added, dropped, renamed or retyped on one side only fails `deno check`.
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import type { RecordSchemas } from "../../src/summary/_record_schemas.ts";
import { recordSchemas } from "../../src/summary/_record_schemas.ts";
import type * as records from "../../src/summary/records.ts";
import { parseRecord } from "../../src/summary/records.ts";

/** True when `A` and `B` are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
/** Compiles only for `true`. */
function assertType<_T extends true>(): void {}

/** Schema name → the interface it is exported as. */
interface RecordTypes {
  HostReadyRecordSchema: records.HostReadyRecord;
  SessionSelectionSchema: records.SessionSelection;
  SessionRecordSchema: records.SessionRecord;
  HostWarningRecordSchema: records.HostWarningRecord;
  HostErrorRecordSchema: records.HostErrorRecord;
  TurnStartedRecordSchema: records.TurnStartedRecord;
  InputPersistedRecordSchema: records.InputPersistedRecord;
  MessageRecordSchema: records.MessageRecord;
  MessageDeltaRecordSchema: records.MessageDeltaRecord;
  ActivityRecordSchema: records.ActivityRecord;
  ApprovalRecordSchema: records.ApprovalRecord;
  DiagnosticRecordSchema: records.DiagnosticRecord;
  TurnFinishedRecordSchema: records.TurnFinishedRecord;
  ToolCallRecordSchema: records.ToolCallRecord;
  ToolResultRecordSchema: records.ToolResultRecord;
  ToolLogRecordSchema: records.ToolLogRecord;
  ToolProgressRecordSchema: records.ToolProgressRecord;
  ToolCancelRecordSchema: records.ToolCancelRecord;
  SummaryRecordSchema: records.SummaryRecord;
}

/** The names whose inferred type differs from the interface (`never` when none). */
type Mismatched = {
  [K in keyof RecordTypes]: Equal<z.output<RecordSchemas[K]>, RecordTypes[K]> extends true ? never
    : K;
}[keyof RecordTypes];

Deno.test("every summary record schema infers exactly its interface", () => {
  assertType<Equal<Mismatched, never>>();
  assertType<Equal<keyof RecordSchemas, keyof RecordTypes>>();
  // The check can fail: a record with one field fewer, or one more, is not equal.
  assertType<Equal<Equal<Omit<records.ToolLogRecord, "bytes">, records.ToolLogRecord>, false>>();
  assertType<
    Equal<Equal<records.ToolLogRecord & { extra: 1 }, records.ToolLogRecord>, false>
  >();
  assert.deepEqual(
    Object.keys(recordSchemas()).sort(),
    [
      "ActivityRecordSchema",
      "ApprovalRecordSchema",
      "DiagnosticRecordSchema",
      "HostErrorRecordSchema",
      "HostReadyRecordSchema",
      "HostWarningRecordSchema",
      "InputPersistedRecordSchema",
      "MessageDeltaRecordSchema",
      "MessageRecordSchema",
      "SessionRecordSchema",
      "SessionSelectionSchema",
      "SummaryRecordSchema",
      "ToolCallRecordSchema",
      "ToolCancelRecordSchema",
      "ToolLogRecordSchema",
      "ToolProgressRecordSchema",
      "ToolResultRecordSchema",
      "TurnFinishedRecordSchema",
      "TurnStartedRecordSchema",
    ],
  );
});

Deno.test("parseRecord reads a line or a value and names what is wrong", () => {
  const line =
    '{"type":"tool.cancel","ts":"2026-01-02T03:04:05.678Z","v":1,"run_id":"r","call_id":"c","reason":"deadline"}';
  const record = parseRecord(line);
  assert.equal(record.type, "tool.cancel");
  assert.deepEqual(parseRecord(JSON.parse(line)), record);
  assert.throws(() => parseRecord("{"), SyntaxError);
  assert.throws(
    () => parseRecord({ ...JSON.parse(line), reason: "bored" }),
    (error: unknown) =>
      error instanceof TypeError && /^Not a summary record: reason:/.test(error.message),
  );
  assert.throws(() => parseRecord({ ...JSON.parse(line), extra: 1 }), TypeError);
  assert.throws(() => parseRecord({ ...JSON.parse(line), v: 2 }), TypeError);
});
