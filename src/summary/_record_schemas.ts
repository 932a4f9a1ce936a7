/**
 * The summary record schemas of `records.ts`, built on first use: the host's
 * writer checks its records against them only with `selfCheck`
 * (`MAGI_TOOLS_SELF_CHECK=1`), so a production run never builds them (zod
 * construction is a measurable part of a start: `bench/notes.md`, "Lazily built
 * zod schemas"). `records.ts` exports these very instances.
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

function build() {
  const Ts = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  const head = { ts: Ts, v: z.literal(SUMMARY_VERSION) };
  const Id = z.string().min(1);
  const NullableString = z.string().nullable();
  const Count = z.int().min(0);
  const HostReadyRecordSchema = z.strictObject({
    type: z.literal("host.ready"),
    ...head,
    agent: z.string(),
    instance_id: z.string(),
    provider: NullableString,
    model: NullableString,
    capabilities: z.array(z.string()),
    tools: z.array(
      z.strictObject({
        name: z.string(),
        tool_id: z.string(),
        effect: z.enum(["read", "write"]),
        /** `module` (a `--tools` module), `mcp` (an `mcpServers` entry) or `openapi`. */
        source: z.enum(["module", "mcp", "openapi"]),
        /** The module's file as found, or the source's config key (e.g. `fs`). */
        source_name: z.string(),
        /** How its declared permissions are enforced (docs/tools.md, "Enforcement levels"). */
        sandbox: z.enum(["kernel+deno", "deno", "none"]),
      }),
    ),
    /**
     * Present when a tool module runs in its own process: how `memoryMb` is enforced
     * (`rlimit`: the process's data limit; `heap_only`: V8's heap cap only) and how the
     * processes a tool starts end (`pid_namespace`: with its process; `process_group`: only
     * those that stay in its group), with the reason when either is the weaker kind
     * (docs/tools.md, "Memory and the processes a tool starts").
     */
    process_limits: z.exactOptional(z.strictObject({
      memory: z.enum(["rlimit", "heap_only"]),
      descendants: z.enum(["pid_namespace", "process_group"]),
      reason: NullableString,
    })),
    /** Present when the host runs without a process sandbox (`"node"`). */
    runtime: z.exactOptional(z.enum(["deno", "node"])),
    /** Present (`"inline"`) when every tool runs inline in the host process (Node.js). */
    isolation: z.exactOptional(z.literal("inline")),
    /**
     * Which backend served (docs/summaries.md): `magi-code`, the scripted `reference`
     * backend, or an `other` command; its basename; where it was chosen. Always written by
     * this version; optional so that records of older versions still parse.
     */
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
  const TurnStartedRecordSchema = z.strictObject({
    type: z.literal("turn.started"),
    ...head,
    session_id: Id,
    run_id: Id,
    attempt: z.exactOptional(z.int().min(1)),
  });
  const InputPersistedRecordSchema = z.strictObject({
    type: z.literal("input.persisted"),
    ...head,
    session_id: Id,
    run_id: Id,
    message_id: Id,
    revision: z.string(),
  });
  const MessageRecordSchema = z.strictObject({
    type: z.literal("message"),
    ...head,
    run_id: Id,
    message_id: Id,
    text: z.string(),
    partial: z.boolean(),
  });
  const MessageDeltaRecordSchema = z.strictObject({
    type: z.literal("message.delta"),
    ...head,
    run_id: Id,
    message_id: Id,
    part: Count,
    text: z.string(),
  });
  const ActivityRecordSchema = z.strictObject({
    type: z.literal("activity"),
    ...head,
    run_id: Id,
    activity_id: Id,
    kind: z.enum(["tool", "subagent", "compaction"]),
    state: z.enum(["started", "completed", "failed"]),
    name: z.string(),
    summary: z.string(),
  });
  const ApprovalRecordSchema = z.strictObject({
    type: z.literal("approval"),
    ...head,
    run_id: Id,
    /** The backend's `approval.requested` (absent for a question the host asked at call time). */
    approval_id: z.exactOptional(Id),
    /** The call the host asked about before running it (absent for the backend's approval). */
    call_id: z.exactOptional(Id),
    summary: z.string(),
    decision: z.enum(["allow", "deny"]),
    decided_by: z.enum(["flag", "config", "user", "expiry", "host"]),
    /** The approval rule that decided it (`allow=file_ticket`), with approval rules. */
    rule: z.exactOptional(z.string()),
    recorded: z.boolean(),
  });
  const ToolCallRecordSchema = z.strictObject({
    type: z.literal("tool.call"),
    ...head,
    run_id: Id,
    call_id: Id,
    name: z.string(),
    tool_id: z.string(),
    arguments_bytes: Count,
    deadline_ms: Count,
    arguments_preview: z.exactOptional(z.string().max(ARGUMENTS_PREVIEW_BYTES)),
    /** With `--record-args`: the call's arguments, configured secrets redacted. */
    arguments: z.exactOptional(z.record(z.string(), z.unknown())),
    via: z.exactOptional(z.string()),
  });
  const ToolResultRecordSchema = z.strictObject({
    type: z.literal("tool.result"),
    ...head,
    run_id: Id,
    call_id: Id,
    name: z.string(),
    via: z.exactOptional(z.string()),
    outcome: z.enum(["success", "error", "cancelled"]),
    /** With `--record-args`, a tool with an output schema: its validated value, redacted. */
    structured: z.exactOptional(z.record(z.string(), z.unknown())),
    error_code: NullableString,
    bytes: Count,
    parts: Count,
    duration_ms: Count,
    abandoned: z.boolean(),
    killed: z.boolean(),
    delivery: z.enum(["complete", "rejected", "failed"]),
    delivery_error: NullableString,
  });
  const ToolLogRecordSchema = z.strictObject({
    type: z.literal("tool.log"),
    ...head,
    run_id: Id,
    call_id: Id,
    name: z.string(),
    text: z.string(),
    bytes: Count,
    truncated_bytes: Count,
  });
  const ToolProgressRecordSchema = z.strictObject({
    type: z.literal("tool.progress"),
    ...head,
    run_id: Id,
    call_id: Id,
    name: z.string(),
    progress: z.number(),
    total: z.exactOptional(z.number()),
    message: z.exactOptional(z.string()),
  });
  const HostWarningRecordSchema = z.strictObject({
    type: z.literal("host.warning"),
    ...head,
    code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
    message: z.string(),
    /** The source at fault, as `<kind>:<name>` (e.g. `mcp:fs`). */
    source: z.exactOptional(z.string()),
  });
  const ToolCancelRecordSchema = z.strictObject({
    type: z.literal("tool.cancel"),
    ...head,
    run_id: Id,
    call_id: Id,
    reason: z.enum(["run_cancelled", "deadline", "shutdown", "run_failed"]),
  });
  const DiagnosticRecordSchema = z.strictObject({
    type: z.literal("diagnostic"),
    ...head,
    run_id: Id,
    code: z.string(),
    summary: z.string(),
  });
  const TurnFinishedRecordSchema = z.strictObject({
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
    /**
     * Present only when `exit_code` is not the one `outcome` implies (0 for
     * `completed`): why. See {@link EXIT_REASONS}.
     */
    exit_reason: z.enum(EXIT_REASONS).optional(),
  });
  const HostErrorRecordSchema = z.strictObject({
    type: z.literal("host.error"),
    ...head,
    code: z.enum(HOST_ERROR_CODES),
    message: z.string(),
    exit_code: z.int(),
  });
  const SummaryRecordSchema = z.discriminatedUnion("type", [
    HostReadyRecordSchema,
    SessionRecordSchema,
    TurnStartedRecordSchema,
    InputPersistedRecordSchema,
    MessageRecordSchema,
    MessageDeltaRecordSchema,
    ActivityRecordSchema,
    ApprovalRecordSchema,
    ToolCallRecordSchema,
    ToolResultRecordSchema,
    ToolLogRecordSchema,
    ToolCancelRecordSchema,
    ToolProgressRecordSchema,
    HostWarningRecordSchema,
    DiagnosticRecordSchema,
    TurnFinishedRecordSchema,
    HostErrorRecordSchema,
  ]);
  return {
    HostReadyRecordSchema,
    SessionSelectionSchema,
    SessionRecordSchema,
    TurnStartedRecordSchema,
    InputPersistedRecordSchema,
    MessageRecordSchema,
    MessageDeltaRecordSchema,
    ActivityRecordSchema,
    ApprovalRecordSchema,
    ToolCallRecordSchema,
    ToolResultRecordSchema,
    ToolLogRecordSchema,
    ToolProgressRecordSchema,
    HostWarningRecordSchema,
    ToolCancelRecordSchema,
    DiagnosticRecordSchema,
    TurnFinishedRecordSchema,
    HostErrorRecordSchema,
    SummaryRecordSchema,
  };
}

/** The summary record schemas, by their `records.ts` names. */
export type RecordSchemas = ReturnType<typeof build>;

let built: RecordSchemas | undefined;

/** The summary record schemas, built on the first call (the same instances every call). */
export function recordSchemas(): RecordSchemas {
  return built ??= build();
}
