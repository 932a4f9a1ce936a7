/**
 * Run event data of the base protocol's table. Every run event's `data` is
 * `session_id`, `run_id` plus exactly the table's fields.
 *
 * @module
 */

import { z } from "zod";
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

const runScope = { session_id: SessionIdSchema, run_id: WireIdSchema };
const ChunkSchema: z.ZodString = boundedString(EVENT_CHUNK_BYTES);
const SummarySchema: z.ZodString = boundedString(SUMMARY_BYTES);

/** `input.persisted` data: the required input append succeeded. */
export const InputPersistedDataSchema: z.ZodObject<
  {
    message_id: z.ZodString;
    durable: z.ZodLiteral<true>;
    revision: z.ZodString;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  message_id: WireIdSchema,
  durable: z.literal(true),
  revision: WireIdSchema,
});
/** `input.persisted` data. */
export type InputPersistedData = z.infer<typeof InputPersistedDataSchema>;

/** `message.delta` data: best-effort append to an assistant segment. */
export const MessageDeltaDataSchema: z.ZodObject<
  {
    message_id: z.ZodString;
    part: z.ZodInt;
    text: z.ZodString;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  message_id: WireIdSchema,
  part: z.int().min(0),
  text: ChunkSchema,
});
/** `message.delta` data. */
export type MessageDeltaData = z.infer<typeof MessageDeltaDataSchema>;

/** `message.reconcile` data: authoritative replacement chunk. */
export const MessageReconcileDataSchema: z.ZodObject<
  {
    message_id: z.ZodString;
    part: z.ZodInt;
    text: z.ZodString;
    last_part: z.ZodBoolean;
    partial: z.ZodBoolean;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  message_id: WireIdSchema,
  part: z.int().min(0),
  text: ChunkSchema,
  last_part: z.boolean(),
  partial: z.boolean(),
});
/** `message.reconcile` data. */
export type MessageReconcileData = z.infer<typeof MessageReconcileDataSchema>;

/** `activity.kind`. */
export const ActivityKindSchema: z.ZodEnum<
  { tool: "tool"; subagent: "subagent"; compaction: "compaction" }
> = z.enum(["tool", "subagent", "compaction"]);
/** `activity.state`. */
export const ActivityStateSchema: z.ZodEnum<
  { started: "started"; completed: "completed"; failed: "failed" }
> = z.enum(["started", "completed", "failed"]);

/** `activity` data. `name` is bounded like a summary (the spec gives no own bound). */
export const ActivityDataSchema: z.ZodObject<
  {
    activity_id: z.ZodString;
    kind: typeof ActivityKindSchema;
    state: typeof ActivityStateSchema;
    name: z.ZodString;
    summary: z.ZodString;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  activity_id: boundedString(ACTIVITY_ID_BYTES, { minBytes: 1 }),
  kind: ActivityKindSchema,
  state: ActivityStateSchema,
  name: SummarySchema,
  summary: SummarySchema,
});
/** `activity` data. */
export type ActivityData = z.infer<typeof ActivityDataSchema>;

/** `approval.requested` data. */
export const ApprovalRequestedDataSchema: z.ZodObject<
  {
    approval_id: z.ZodString;
    summary: z.ZodString;
    expires_in_ms: z.ZodInt;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  approval_id: WireIdSchema,
  summary: SummarySchema,
  expires_in_ms: z.int().min(0),
});
/** `approval.requested` data. */
export type ApprovalRequestedData = z.infer<typeof ApprovalRequestedDataSchema>;

/** `diagnostic` data. */
export const DiagnosticDataSchema: z.ZodObject<
  { code: z.ZodString; summary: z.ZodString; session_id: z.ZodString; run_id: z.ZodString },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  code: CodeSchema,
  summary: SummarySchema,
});
/** `diagnostic` data. */
export type DiagnosticData = z.infer<typeof DiagnosticDataSchema>;

/** `run.finished` outcome. */
export const RunOutcomeSchema: z.ZodEnum<
  { cancelled: "cancelled"; completed: "completed"; failed: "failed" }
> = z.enum(["completed", "cancelled", "failed"]);
/** `run.finished` outcome. */
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;
/** `run.finished` persistence. */
export const RunPersistenceSchema: z.ZodEnum<
  { durable: "durable"; degraded: "degraded"; not_started: "not_started" }
> = z.enum(["durable", "degraded", "not_started"]);
/** `run.finished` persistence. */
export type RunPersistence = z.infer<typeof RunPersistenceSchema>;

/** `run.finished` data; `error_code` is a known error code or null. */
export const RunFinishedDataSchema: z.ZodObject<
  {
    outcome: typeof RunOutcomeSchema;
    persistence: typeof RunPersistenceSchema;
    revision: z.ZodNullable<z.ZodString>;
    error_code: z.ZodNullable<typeof ErrorCodeSchema>;
    session_id: z.ZodString;
    run_id: z.ZodString;
  },
  z.core.$strict
> = z.strictObject({
  ...runScope,
  outcome: RunOutcomeSchema,
  persistence: RunPersistenceSchema,
  revision: WireIdSchema.nullable(),
  error_code: ErrorCodeSchema.nullable(),
});
/** `run.finished` data. */
export type RunFinishedData = z.infer<typeof RunFinishedDataSchema>;
