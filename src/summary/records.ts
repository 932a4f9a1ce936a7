/**
 * The host's NDJSON summary records (`docs/summaries.md`): zod strict
 * schemas with their inferred types. Every record has `type`, `ts`
 * (RFC 3339 UTC) and `v` (schema version 1). No raw tool arguments, no
 * reasoning, no secrets.
 *
 * @module
 */

import { z } from "zod";
import { EffortSchema } from "../protocol/schemas/common.ts";

/** Summary schema version. */
export const SUMMARY_VERSION = 1;

/** Most UTF-8 bytes of a `tool.call` record's `arguments_preview`. */
export const ARGUMENTS_PREVIEW_BYTES = 200;

const Ts: z.ZodString = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
const head: { ts: z.ZodString; v: z.ZodLiteral<1> } = { ts: Ts, v: z.literal(SUMMARY_VERSION) };
const Id: z.ZodString = z.string().min(1);
const NullableString: z.ZodNullable<z.ZodString> = z.string().nullable();
const Count: z.ZodInt = z.int().min(0);

/** `host.ready`: the backend is initialized and the tools are registered. */
export const HostReadyRecordSchema: z.ZodObject<
  {
    agent: z.ZodString;
    instance_id: z.ZodString;
    provider: z.ZodNullable<z.ZodString>;
    model: z.ZodNullable<z.ZodString>;
    capabilities: z.ZodArray<z.ZodString>;
    tools: z.ZodArray<
      z.ZodObject<
        {
          name: z.ZodString;
          tool_id: z.ZodString;
          effect: z.ZodEnum<{ read: "read"; write: "write" }>;
          source: z.ZodEnum<{ module: "module"; mcp: "mcp"; openapi: "openapi" }>;
          source_name: z.ZodString;
          sandbox: z.ZodEnum<{ "kernel+deno": "kernel+deno"; deno: "deno"; none: "none" }>;
        },
        z.core.$strict
      >
    >;
    process_limits: z.ZodExactOptional<
      z.ZodObject<
        {
          memory: z.ZodEnum<{ rlimit: "rlimit"; heap_only: "heap_only" }>;
          descendants: z.ZodEnum<
            { pid_namespace: "pid_namespace"; process_group: "process_group" }
          >;
          reason: z.ZodNullable<z.ZodString>;
        },
        z.core.$strict
      >
    >;
    runtime: z.ZodExactOptional<z.ZodEnum<{ deno: "deno"; node: "node" }>>;
    isolation: z.ZodExactOptional<z.ZodLiteral<"inline">>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"host.ready">;
  },
  z.core.$strict
> = z.strictObject({
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
});
/** `host.ready`. */
export type HostReadyRecord = z.infer<typeof HostReadyRecordSchema>;

/** The provider/model/effort selection a resumed session runs with. */
export const SessionSelectionSchema: z.ZodObject<
  {
    provider: z.ZodNullable<z.ZodString>;
    model: z.ZodNullable<z.ZodString>;
    requested_effort: typeof EffortSchema;
    effective_effort: z.ZodNullable<typeof EffortSchema>;
  },
  z.core.$strict
> = z.strictObject({
  provider: NullableString,
  model: NullableString,
  requested_effort: EffortSchema,
  effective_effort: EffortSchema.nullable(),
});

/**
 * `session`: the attached session. A resumed session (`--session`) also has
 * `selection` (from `status` after `session.open`; null when the backend has
 * none, absent when its `status` has no `selection` field) and `notices`
 * (`session.open`'s, e.g. `saved_selection_unavailable`).
 */
export const SessionRecordSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    durable: z.ZodBoolean;
    resumed: z.ZodBoolean;
    selection: z.ZodExactOptional<z.ZodNullable<typeof SessionSelectionSchema>>;
    notices: z.ZodExactOptional<z.ZodArray<z.ZodString>>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"session">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("session"),
  ...head,
  session_id: Id,
  durable: z.boolean(),
  resumed: z.boolean(),
  selection: z.exactOptional(SessionSelectionSchema.nullable()),
  notices: z.exactOptional(z.array(z.string())),
});
/** `session`. */
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** `turn.started`: `turn.start` was admitted. */
export const TurnStartedRecordSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"turn.started">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("turn.started"),
  ...head,
  session_id: Id,
  run_id: Id,
});
/** `turn.started`. */
export type TurnStartedRecord = z.infer<typeof TurnStartedRecordSchema>;

/** `input.persisted`: from here the session ID may be saved for `--session`. */
export const InputPersistedRecordSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    message_id: z.ZodString;
    revision: z.ZodString;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"input.persisted">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("input.persisted"),
  ...head,
  session_id: Id,
  run_id: Id,
  message_id: Id,
  revision: z.string(),
});
/** `input.persisted`. */
export type InputPersistedRecord = z.infer<typeof InputPersistedRecordSchema>;

/** `message`: one reconciled assistant segment. */
export const MessageRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    message_id: z.ZodString;
    text: z.ZodString;
    partial: z.ZodBoolean;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"message">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("message"),
  ...head,
  run_id: Id,
  message_id: Id,
  text: z.string(),
  partial: z.boolean(),
});
/** `message`. */
export type MessageRecord = z.infer<typeof MessageRecordSchema>;

/** `message.delta`: a best-effort display chunk (only with `--deltas`). */
export const MessageDeltaRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    message_id: z.ZodString;
    part: z.ZodInt;
    text: z.ZodString;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"message.delta">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("message.delta"),
  ...head,
  run_id: Id,
  message_id: Id,
  part: Count,
  text: z.string(),
});
/** `message.delta`. */
export type MessageDeltaRecord = z.infer<typeof MessageDeltaRecordSchema>;

/** `activity`: a backend activity (tool, subagent, compaction). */
export const ActivityRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    activity_id: z.ZodString;
    kind: z.ZodEnum<{ tool: "tool"; subagent: "subagent"; compaction: "compaction" }>;
    state: z.ZodEnum<{ started: "started"; completed: "completed"; failed: "failed" }>;
    name: z.ZodString;
    summary: z.ZodString;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"activity">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("activity"),
  ...head,
  run_id: Id,
  activity_id: Id,
  kind: z.enum(["tool", "subagent", "compaction"]),
  state: z.enum(["started", "completed", "failed"]),
  name: z.string(),
  summary: z.string(),
});
/** `activity`. */
export type ActivityRecord = z.infer<typeof ActivityRecordSchema>;

/** `approval`: an approval request and how it was decided. */
export const ApprovalRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    approval_id: z.ZodString;
    summary: z.ZodString;
    decision: z.ZodEnum<{ allow: "allow"; deny: "deny" }>;
    decided_by: z.ZodEnum<{ flag: "flag"; user: "user"; expiry: "expiry" }>;
    recorded: z.ZodBoolean;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"approval">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("approval"),
  ...head,
  run_id: Id,
  approval_id: Id,
  summary: z.string(),
  decision: z.enum(["allow", "deny"]),
  decided_by: z.enum(["flag", "user", "expiry"]),
  recorded: z.boolean(),
});
/** `approval`. */
export type ApprovalRecord = z.infer<typeof ApprovalRecordSchema>;

/**
 * `tool.call`: the backend asked for a call (arguments are not echoed, only
 * their size; the terminal view, `--format text`, asks for a shortened
 * `arguments_preview` of at most 200 UTF-8 bytes of compact JSON, cut with `…`).
 */
export const ToolCallRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    tool_id: z.ZodString;
    arguments_bytes: z.ZodInt;
    deadline_ms: z.ZodInt;
    arguments_preview: z.ZodExactOptional<z.ZodString>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.call">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("tool.call"),
  ...head,
  run_id: Id,
  call_id: Id,
  name: z.string(),
  tool_id: z.string(),
  arguments_bytes: Count,
  deadline_ms: Count,
  arguments_preview: z.exactOptional(z.string().max(ARGUMENTS_PREVIEW_BYTES)),
});
/** `tool.call`. */
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** `tool.result`: the call's outcome and how the backend took the result. */
export const ToolResultRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    outcome: z.ZodEnum<{ error: "error"; success: "success"; cancelled: "cancelled" }>;
    error_code: z.ZodNullable<z.ZodString>;
    bytes: z.ZodInt;
    parts: z.ZodInt;
    duration_ms: z.ZodInt;
    abandoned: z.ZodBoolean;
    killed: z.ZodBoolean;
    delivery: z.ZodEnum<{ failed: "failed"; complete: "complete"; rejected: "rejected" }>;
    delivery_error: z.ZodNullable<z.ZodString>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.result">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("tool.result"),
  ...head,
  run_id: Id,
  call_id: Id,
  name: z.string(),
  outcome: z.enum(["success", "error", "cancelled"]),
  error_code: NullableString,
  bytes: Count,
  parts: Count,
  duration_ms: Count,
  abandoned: z.boolean(),
  killed: z.boolean(),
  delivery: z.enum(["complete", "rejected", "failed"]),
  delivery_error: NullableString,
});
/** `tool.result`. */
export type ToolResultRecord = z.infer<typeof ToolResultRecordSchema>;

/**
 * `tool.log`: a process-isolated call's captured output (console, stdout and
 * stderr writes), at most 64 KiB of `text` plus a `[… N bytes truncated]`
 * marker; emitted once per call that wrote anything, before its `tool.result`.
 */
export const ToolLogRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    text: z.ZodString;
    bytes: z.ZodInt;
    truncated_bytes: z.ZodInt;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.log">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("tool.log"),
  ...head,
  run_id: Id,
  call_id: Id,
  name: z.string(),
  text: z.string(),
  bytes: Count,
  truncated_bytes: Count,
});
/** `tool.log`. */
export type ToolLogRecord = z.infer<typeof ToolLogRecordSchema>;

/**
 * `tool.progress`: a progress notification of a running external call (an
 * MCP server's `notifications/progress`).
 */
export const ToolProgressRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    progress: z.ZodNumber;
    total: z.ZodExactOptional<z.ZodNumber>;
    message: z.ZodExactOptional<z.ZodString>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.progress">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("tool.progress"),
  ...head,
  run_id: Id,
  call_id: Id,
  name: z.string(),
  progress: z.number(),
  total: z.exactOptional(z.number()),
  message: z.exactOptional(z.string()),
});
/** `tool.progress`. */
export type ToolProgressRecord = z.infer<typeof ToolProgressRecordSchema>;

/**
 * `host.warning`: something the run continues without, e.g. an optional MCP
 * server that did not start (`source_unavailable`) or a server that exited
 * mid-run (`source_exited`).
 */
export const HostWarningRecordSchema: z.ZodObject<
  {
    code: z.ZodString;
    message: z.ZodString;
    source: z.ZodExactOptional<z.ZodString>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"host.warning">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("host.warning"),
  ...head,
  code: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/),
  message: z.string(),
  /** The source at fault, as `<kind>:<name>` (e.g. `mcp:fs`). */
  source: z.exactOptional(z.string()),
});
/** `host.warning`. */
export type HostWarningRecord = z.infer<typeof HostWarningRecordSchema>;

/** `tool.cancel`: the backend cancelled a call. */
export const ToolCancelRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    reason: z.ZodEnum<
      {
        run_cancelled: "run_cancelled";
        deadline: "deadline";
        shutdown: "shutdown";
        run_failed: "run_failed";
      }
    >;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.cancel">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("tool.cancel"),
  ...head,
  run_id: Id,
  call_id: Id,
  reason: z.enum(["run_cancelled", "deadline", "shutdown", "run_failed"]),
});
/** `tool.cancel`. */
export type ToolCancelRecord = z.infer<typeof ToolCancelRecordSchema>;

/** `diagnostic`: a backend diagnostic (redacted summary). */
export const DiagnosticRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    code: z.ZodString;
    summary: z.ZodString;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"diagnostic">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("diagnostic"),
  ...head,
  run_id: Id,
  code: z.string(),
  summary: z.string(),
});
/** `diagnostic`. */
export type DiagnosticRecord = z.infer<typeof DiagnosticRecordSchema>;

/**
 * Why `turn.finished`'s `exit_code` differs from what its `outcome` implies:
 * `tool_errors` (`--fail-on-tool-error` and a tool call ended in error or was
 * denied), `last_message_unwritable` (the `--last-message` file could not be
 * written), `summary_output_failed` (stdout could not be written).
 */
export const EXIT_REASONS = [
  "tool_errors",
  "last_message_unwritable",
  "summary_output_failed",
] as const;

/** `turn.finished`: the run's terminal accounting and the exit code the host will use. */
export const TurnFinishedRecordSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    outcome: z.ZodEnum<{ completed: "completed"; failed: "failed"; cancelled: "cancelled" }>;
    persistence: z.ZodEnum<
      { durable: "durable"; degraded: "degraded"; not_started: "not_started" }
    >;
    revision: z.ZodNullable<z.ZodString>;
    error_code: z.ZodNullable<z.ZodString>;
    cancelled_by: z.ZodNullable<z.ZodEnum<{ signal: "signal"; timeout: "timeout" }>>;
    exit_code: z.ZodInt;
    exit_reason: z.ZodOptional<
      z.ZodEnum<
        {
          tool_errors: "tool_errors";
          last_message_unwritable: "last_message_unwritable";
          summary_output_failed: "summary_output_failed";
        }
      >
    >;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"turn.finished">;
  },
  z.core.$strict
> = z.strictObject({
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
/** `turn.finished`. */
export type TurnFinishedRecord = z.infer<typeof TurnFinishedRecordSchema>;

/** Host error codes of `host.error`. */
export const HOST_ERROR_CODES = [
  "protocol_violation",
  "backend_exited",
  "backend_stalled",
  "backend_unavailable",
  "startup_failed",
  "descriptor_mismatch",
  "request_failed",
  "client_closed",
  "interrupted",
  "request_budget_exhausted",
] as const;

/** `host.error`: why the host stops abnormally (a fixed code and a short message). */
export const HostErrorRecordSchema: z.ZodObject<
  {
    code: z.ZodEnum<
      {
        protocol_violation: "protocol_violation";
        backend_exited: "backend_exited";
        backend_stalled: "backend_stalled";
        backend_unavailable: "backend_unavailable";
        startup_failed: "startup_failed";
        descriptor_mismatch: "descriptor_mismatch";
        request_failed: "request_failed";
        client_closed: "client_closed";
        interrupted: "interrupted";
        request_budget_exhausted: "request_budget_exhausted";
      }
    >;
    message: z.ZodString;
    exit_code: z.ZodInt;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"host.error">;
  },
  z.core.$strict
> = z.strictObject({
  type: z.literal("host.error"),
  ...head,
  code: z.enum(HOST_ERROR_CODES),
  message: z.string(),
  exit_code: z.int(),
});
/** `host.error`. */
export type HostErrorRecord = z.infer<typeof HostErrorRecordSchema>;

/** Any summary record. */
export const SummaryRecordSchema: z.ZodDiscriminatedUnion<
  [
    typeof HostReadyRecordSchema,
    typeof SessionRecordSchema,
    typeof TurnStartedRecordSchema,
    typeof InputPersistedRecordSchema,
    typeof MessageRecordSchema,
    typeof MessageDeltaRecordSchema,
    typeof ActivityRecordSchema,
    typeof ApprovalRecordSchema,
    typeof ToolCallRecordSchema,
    typeof ToolResultRecordSchema,
    typeof ToolLogRecordSchema,
    typeof ToolCancelRecordSchema,
    typeof ToolProgressRecordSchema,
    typeof HostWarningRecordSchema,
    typeof DiagnosticRecordSchema,
    typeof TurnFinishedRecordSchema,
    typeof HostErrorRecordSchema,
  ],
  "type"
> = z.discriminatedUnion("type", [
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
/** Any summary record. */
export type SummaryRecord = z.infer<typeof SummaryRecordSchema>;

/** Distribute `Omit` over a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A record before the writer stamps `ts` and `v`. */
export type SummaryInput = DistributiveOmit<SummaryRecord, "ts" | "v">;
