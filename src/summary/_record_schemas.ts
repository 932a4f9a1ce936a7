/**
 * The summary record schemas of `records.ts`, built on first use: the host's
 * writer checks its records against them only with `selfCheck`
 * (`MAGI_TOOLS_SELF_CHECK=1`), so a production run never builds them (zod
 * construction is a measurable part of a start: `bench/notes.md`, "Lazily built
 * zod schemas"). `records.ts` exports these very instances, each typed as its
 * record type; the types inferred here (`RecordSchemas`) are what
 * `tests/summary/record_types_test.ts` compares with those types.
 *
 * One builder per family: host (`host.*`, `session`), turn (the turn's own records and what
 * the backend said), tool (`tool.*`, the calls the host ran).
 *
 * @module
 */

import { z } from "zod";
import { EffortSchema } from "../protocol/schemas/common.ts";
import {
  ARGUMENTS_PREVIEW_BYTES,
  EXIT_REASONS,
  HOST_ERROR_CODES,
  SUMMARY_VERSION,
} from "./constants.ts";

/** The pieces every family uses. */
function common() {
  const Ts = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  return {
    head: { ts: Ts, v: z.literal(SUMMARY_VERSION) },
    Id: z.string().min(1),
    NullableString: z.string().nullable(),
    Count: z.int().min(0),
  };
}
type Common = ReturnType<typeof common>;

/** `host.ready`, `session`, `host.warning`, `host.error`. */
function hostSchemas({ head, Id, NullableString }: Common) {
  const HostReadyRecordSchema = z.strictObject({
    type: z.literal("host.ready"),
    ...head,
    agent: z.string(),
    instance_id: z.string(),
    provider: NullableString,
    model: NullableString,
    capabilities: z.array(z.string()),
    tools: z.array(z.strictObject({
      name: z.string(),
      tool_id: z.string(),
      effect: z.enum(["read", "write"]),
      source: z.enum(["module", "mcp", "openapi"]),
      source_name: z.string(),
      sandbox: z.enum(["kernel+deno", "deno", "none"]),
    })),
    process_limits: z.exactOptional(z.strictObject({
      memory: z.enum(["rlimit", "heap_only"]),
      descendants: z.enum(["pid_namespace", "process_group"]),
      reason: NullableString,
    })),
    runtime: z.exactOptional(z.enum(["deno", "node"])),
    isolation: z.exactOptional(z.literal("inline")),
    backend: z.exactOptional(z.strictObject({
      kind: z.enum(["magi-code", "reference", "other"]),
      command: z.string(),
      from: z.enum(["flag", "env", "path", "reference"]),
    })),
  });
  const SessionSelectionSchema = z.strictObject({
    provider: NullableString,
    model: NullableString,
    requested_effort: EffortSchema,
    effective_effort: EffortSchema.nullable(),
  });
  const SessionRecordSchema = z.strictObject({
    type: z.literal("session"),
    ...head,
    session_id: Id,
    durable: z.boolean(),
    resumed: z.boolean(),
    selection: z.exactOptional(SessionSelectionSchema.nullable()),
    notices: z.exactOptional(z.array(z.string())),
  });
  const HostWarningRecordSchema = z.strictObject({
    type: z.literal("host.warning"),
    ...head,
    code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
    message: z.string(),
    source: z.exactOptional(z.string()),
  });
  const HostErrorRecordSchema = z.strictObject({
    type: z.literal("host.error"),
    ...head,
    code: z.enum(HOST_ERROR_CODES),
    message: z.string(),
    exit_code: z.int(),
  });
  return {
    HostReadyRecordSchema,
    SessionSelectionSchema,
    SessionRecordSchema,
    HostWarningRecordSchema,
    HostErrorRecordSchema,
  };
}

/** `turn.started`, `input.persisted`, `message`, `message.delta`, `activity`, `approval`, `diagnostic`, `turn.finished`. */
function turnSchemas({ head, Id, NullableString, Count }: Common) {
  const runScoped = { ...head, run_id: Id };
  return {
    TurnStartedRecordSchema: z.strictObject({
      type: z.literal("turn.started"),
      ...head,
      session_id: Id,
      run_id: Id,
      attempt: z.exactOptional(z.int().min(1)),
    }),
    InputPersistedRecordSchema: z.strictObject({
      type: z.literal("input.persisted"),
      ...head,
      session_id: Id,
      run_id: Id,
      message_id: Id,
      revision: z.string(),
    }),
    MessageRecordSchema: z.strictObject({
      type: z.literal("message"),
      ...runScoped,
      message_id: Id,
      text: z.string(),
      partial: z.boolean(),
    }),
    MessageDeltaRecordSchema: z.strictObject({
      type: z.literal("message.delta"),
      ...runScoped,
      message_id: Id,
      part: Count,
      text: z.string(),
    }),
    ActivityRecordSchema: z.strictObject({
      type: z.literal("activity"),
      ...runScoped,
      activity_id: Id,
      kind: z.enum(["tool", "subagent", "compaction"]),
      state: z.enum(["started", "completed", "failed"]),
      name: z.string(),
      summary: z.string(),
    }),
    ApprovalRecordSchema: z.strictObject({
      type: z.literal("approval"),
      ...runScoped,
      approval_id: z.exactOptional(Id),
      call_id: z.exactOptional(Id),
      summary: z.string(),
      decision: z.enum(["allow", "deny"]),
      decided_by: z.enum(["flag", "config", "user", "expiry", "host"]),
      rule: z.exactOptional(z.string()),
      recorded: z.boolean(),
    }),
    DiagnosticRecordSchema: z.strictObject({
      type: z.literal("diagnostic"),
      ...runScoped,
      code: z.string(),
      summary: z.string(),
    }),
    TurnFinishedRecordSchema: z.strictObject({
      type: z.literal("turn.finished"),
      ...head,
      session_id: Id,
      run_id: Id,
      outcome: z.enum(["completed", "cancelled", "failed"]),
      persistence: z.enum(["durable", "degraded", "not_started"]),
      revision: NullableString,
      error_code: NullableString,
      cancelled_by: z.enum(["signal", "timeout"]).nullable(),
      exit_code: z.int(),
      exit_reason: z.enum(EXIT_REASONS).optional(),
    }),
  };
}

/** `tool.call`, `tool.result`, `tool.log`, `tool.progress`, `tool.cancel`. */
function toolSchemas({ head, Id, NullableString, Count }: Common) {
  const callScoped = { ...head, run_id: Id, call_id: Id };
  return {
    ToolCallRecordSchema: z.strictObject({
      type: z.literal("tool.call"),
      ...callScoped,
      name: z.string(),
      tool_id: z.string(),
      arguments_bytes: Count,
      deadline_ms: Count,
      arguments_preview: z.exactOptional(z.string().max(ARGUMENTS_PREVIEW_BYTES)),
      arguments: z.exactOptional(z.record(z.string(), z.unknown())),
      via: z.exactOptional(z.string()),
    }),
    ToolResultRecordSchema: z.strictObject({
      type: z.literal("tool.result"),
      ...callScoped,
      name: z.string(),
      via: z.exactOptional(z.string()),
      outcome: z.enum(["success", "error", "cancelled"]),
      structured: z.exactOptional(z.record(z.string(), z.unknown())),
      error_code: NullableString,
      bytes: Count,
      parts: Count,
      duration_ms: Count,
      abandoned: z.boolean(),
      killed: z.boolean(),
      delivery: z.enum(["complete", "rejected", "failed"]),
      delivery_error: NullableString,
    }),
    ToolLogRecordSchema: z.strictObject({
      type: z.literal("tool.log"),
      ...callScoped,
      name: z.string(),
      text: z.string(),
      bytes: Count,
      truncated_bytes: Count,
    }),
    ToolProgressRecordSchema: z.strictObject({
      type: z.literal("tool.progress"),
      ...callScoped,
      name: z.string(),
      progress: z.number(),
      total: z.exactOptional(z.number()),
      message: z.exactOptional(z.string()),
    }),
    ToolCancelRecordSchema: z.strictObject({
      type: z.literal("tool.cancel"),
      ...callScoped,
      reason: z.enum(["run_cancelled", "deadline", "shutdown", "run_failed"]),
    }),
  };
}

function build() {
  const shared = common();
  const host = hostSchemas(shared);
  const turn = turnSchemas(shared);
  const tool = toolSchemas(shared);
  const SummaryRecordSchema = z.discriminatedUnion("type", [
    host.HostReadyRecordSchema,
    host.SessionRecordSchema,
    turn.TurnStartedRecordSchema,
    turn.InputPersistedRecordSchema,
    turn.MessageRecordSchema,
    turn.MessageDeltaRecordSchema,
    turn.ActivityRecordSchema,
    turn.ApprovalRecordSchema,
    tool.ToolCallRecordSchema,
    tool.ToolResultRecordSchema,
    tool.ToolLogRecordSchema,
    tool.ToolCancelRecordSchema,
    tool.ToolProgressRecordSchema,
    host.HostWarningRecordSchema,
    turn.DiagnosticRecordSchema,
    turn.TurnFinishedRecordSchema,
    host.HostErrorRecordSchema,
  ]);
  return { ...host, ...turn, ...tool, SummaryRecordSchema };
}

/** The summary record schemas, by their `records.ts` names, with their inferred types. */
export type RecordSchemas = ReturnType<typeof build>;

let built: RecordSchemas | undefined;

/** The summary record schemas, built on the first call (the same instances every call). */
export function recordSchemas(): RecordSchemas {
  return built ??= build();
}
