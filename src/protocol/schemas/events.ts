/**
 * Run event data of the base protocol's table. Every run event's `data` is
 * `session_id`, `run_id` plus exactly the table's fields. Each data type is an
 * object type; its schema is typed as it (`tests/protocol/schemas/wire_types_test.ts`
 * pins the two together).
 *
 * @module
 */

import { z } from "zod";
import type { ErrorCode } from "../errors.ts";
import { ACTIVITY_ID_BYTES, EVENT_CHUNK_BYTES, SUMMARY_BYTES } from "../limits.ts";
import {
  boundedString,
  CodeSchema,
  ErrorCodeSchema,
  SessionIdSchema,
  WireIdSchema,
} from "./common.ts";

/** Base run event names. */
export const BASE_EVENT_NAMES = [
  "input.persisted",
  "message.delta",
  "message.reconcile",
  "activity",
  "approval.requested",
  "diagnostic",
  "run.finished",
] as const;

/** Every version-1 event name, including negotiated extensions' events. */
export const EVENT_NAMES = [
  ...BASE_EVENT_NAMES,
  "client.tool.call",
  "client.tool.cancel",
  "tool.card",
] as const;

/** A version-1 event name. */
export type EventName = typeof EVENT_NAMES[number];

/** `input.persisted` data: the required input append succeeded. */
export type InputPersistedData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  message_id: string;
  durable: true;
  revision: string;
};

/** `message.delta` data: best-effort append to an assistant segment. */
export type MessageDeltaData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  message_id: string;
  part: number;
  text: string;
};

/** `message.reconcile` data: authoritative replacement chunk. */
export type MessageReconcileData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  message_id: string;
  part: number;
  text: string;
  last_part: boolean;
  partial: boolean;
};

/** `activity.kind`. */
export type ActivityKind = "tool" | "subagent" | "compaction";
/** `activity.state`. */
export type ActivityState = "started" | "completed" | "failed";

/** `activity` data. `name` is bounded like a summary (the spec gives no own bound). */
export type ActivityData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  activity_id: string;
  kind: ActivityKind;
  state: ActivityState;
  name: string;
  summary: string;
};

/** `approval.requested` data. */
export type ApprovalRequestedData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  approval_id: string;
  summary: string;
  expires_in_ms: number;
};

/** `diagnostic` data. */
export type DiagnosticData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  code: string;
  summary: string;
};

/** `run.finished` outcome. */
export type RunOutcome = "completed" | "cancelled" | "failed";
/** `run.finished` persistence. */
export type RunPersistence = "durable" | "degraded" | "not_started";

/** `run.finished` data; `error_code` is a known error code or null. */
export type RunFinishedData = {
  /** The session the run belongs to. */
  session_id: string;
  /** The run. */
  run_id: string;
  outcome: RunOutcome;
  persistence: RunPersistence;
  revision: string | null;
  error_code: ErrorCode | null;
};

function build() {
  const runScope = { session_id: SessionIdSchema, run_id: WireIdSchema };
  const Chunk = boundedString(EVENT_CHUNK_BYTES);
  const Summary = boundedString(SUMMARY_BYTES);
  const ActivityKindSchema = z.enum(["tool", "subagent", "compaction"]);
  const ActivityStateSchema = z.enum(["started", "completed", "failed"]);
  const RunOutcomeSchema = z.enum(["completed", "cancelled", "failed"]);
  const RunPersistenceSchema = z.enum(["durable", "degraded", "not_started"]);
  return {
    InputPersistedDataSchema: z.strictObject({
      ...runScope,
      message_id: WireIdSchema,
      durable: z.literal(true),
      revision: WireIdSchema,
    }),
    MessageDeltaDataSchema: z.strictObject({
      ...runScope,
      message_id: WireIdSchema,
      part: z.int().min(0),
      text: Chunk,
    }),
    MessageReconcileDataSchema: z.strictObject({
      ...runScope,
      message_id: WireIdSchema,
      part: z.int().min(0),
      text: Chunk,
      last_part: z.boolean(),
      partial: z.boolean(),
    }),
    ActivityDataSchema: z.strictObject({
      ...runScope,
      activity_id: boundedString(ACTIVITY_ID_BYTES, { minBytes: 1 }),
      kind: ActivityKindSchema,
      state: ActivityStateSchema,
      name: Summary,
      summary: Summary,
    }),
    ApprovalRequestedDataSchema: z.strictObject({
      ...runScope,
      approval_id: WireIdSchema,
      summary: Summary,
      expires_in_ms: z.int().min(0),
    }),
    DiagnosticDataSchema: z.strictObject({ ...runScope, code: CodeSchema, summary: Summary }),
    RunFinishedDataSchema: z.strictObject({
      ...runScope,
      outcome: RunOutcomeSchema,
      persistence: RunPersistenceSchema,
      revision: WireIdSchema.nullable(),
      error_code: ErrorCodeSchema.nullable(),
    }),
  };
}

/** The event data schemas with the types zod infers (what the type tests compare). */
export type EventSchemas = ReturnType<typeof build>;
const built: EventSchemas = build();

/** `input.persisted` data. */
export const InputPersistedDataSchema: z.ZodType<InputPersistedData> =
  built.InputPersistedDataSchema;
/** `message.delta` data. */
export const MessageDeltaDataSchema: z.ZodType<MessageDeltaData> = built.MessageDeltaDataSchema;
/** `message.reconcile` data. */
export const MessageReconcileDataSchema: z.ZodType<MessageReconcileData> =
  built.MessageReconcileDataSchema;
/** `activity` data. */
export const ActivityDataSchema: z.ZodType<ActivityData> = built.ActivityDataSchema;
/** `approval.requested` data. */
export const ApprovalRequestedDataSchema: z.ZodType<ApprovalRequestedData> =
  built.ApprovalRequestedDataSchema;
/** `diagnostic` data. */
export const DiagnosticDataSchema: z.ZodType<DiagnosticData> = built.DiagnosticDataSchema;
/** `run.finished` data. */
export const RunFinishedDataSchema: z.ZodType<RunFinishedData> = built.RunFinishedDataSchema;
