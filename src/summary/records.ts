/**
 * The host's NDJSON summary records (`docs/summaries.md`): zod strict
 * schemas with their inferred types. Every record has `type`, `ts`
 * (RFC 3339 UTC) and `v` (schema version 1). No raw tool arguments, no
 * reasoning, no secrets.
 *
 * Importing this module builds every schema; the host's run path does not
 * import it (its writer checks records against the same schemas, built on
 * first use, only with `MAGI_TOOLS_SELF_CHECK=1`).
 *
 * @module
 */

import type { z } from "zod";
import type { EffortSchema } from "../protocol/schemas/common.ts";
import { recordSchemas } from "./_record_schemas.ts";

export {
  ARGUMENTS_PREVIEW_BYTES,
  EXIT_REASONS,
  HOST_ERROR_CODES,
  SUMMARY_VERSION,
} from "./constants.ts";

// Built here, when this module loads, for the library's users; the host's own writer
// builds them only when it self-checks (`_record_schemas.ts`).
const schemas = recordSchemas();

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
    backend: z.ZodExactOptional<
      z.ZodObject<
        {
          kind: z.ZodEnum<{ "magi-code": "magi-code"; reference: "reference"; other: "other" }>;
          command: z.ZodString;
          from: z.ZodEnum<{ flag: "flag"; env: "env"; path: "path"; reference: "reference" }>;
        },
        z.core.$strict
      >
    >;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"host.ready">;
  },
  z.core.$strict
> = schemas.HostReadyRecordSchema;
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
> = schemas.SessionSelectionSchema;

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
> = schemas.SessionRecordSchema;
/** `session`. */
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/**
 * `turn.started`: `turn.start` was admitted. A batch item's also has `attempt`: how many
 * times the item has been started in its output folder (2 and more: run again after a kill).
 */
export const TurnStartedRecordSchema: z.ZodObject<
  {
    session_id: z.ZodString;
    run_id: z.ZodString;
    attempt: z.ZodExactOptional<z.ZodInt>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"turn.started">;
  },
  z.core.$strict
> = schemas.TurnStartedRecordSchema;
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
> = schemas.InputPersistedRecordSchema;
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
> = schemas.MessageRecordSchema;
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
> = schemas.MessageDeltaRecordSchema;
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
> = schemas.ActivityRecordSchema;
/** `activity`. */
export type ActivityRecord = z.infer<typeof ActivityRecordSchema>;

/**
 * `approval`: an approval request and how it was decided: the backend's (`approval_id`) or
 * the host's own question before a write tool call runs (`call_id`).
 */
export const ApprovalRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    approval_id: z.ZodExactOptional<z.ZodString>;
    call_id: z.ZodExactOptional<z.ZodString>;
    summary: z.ZodString;
    decision: z.ZodEnum<{ allow: "allow"; deny: "deny" }>;
    decided_by: z.ZodEnum<
      { flag: "flag"; config: "config"; user: "user"; expiry: "expiry"; host: "host" }
    >;
    rule: z.ZodExactOptional<z.ZodString>;
    recorded: z.ZodBoolean;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"approval">;
  },
  z.core.$strict
> = schemas.ApprovalRecordSchema;
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
    arguments: z.ZodExactOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    via: z.ZodExactOptional<z.ZodString>;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"tool.call">;
  },
  z.core.$strict
> = schemas.ToolCallRecordSchema;
/** `tool.call`. */
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** `tool.result`: the call's outcome and how the backend took the result. */
export const ToolResultRecordSchema: z.ZodObject<
  {
    run_id: z.ZodString;
    call_id: z.ZodString;
    name: z.ZodString;
    via: z.ZodExactOptional<z.ZodString>;
    outcome: z.ZodEnum<{ error: "error"; success: "success"; cancelled: "cancelled" }>;
    structured: z.ZodExactOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
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
> = schemas.ToolResultRecordSchema;
/** `tool.result`. */
export type ToolResultRecord = z.infer<typeof ToolResultRecordSchema>;

/**
 * `tool.log`: a process-isolated call's captured output (console, stdout and
 * stderr writes), streamed while the call runs (one record per 200 ms window of output, the
 * rest before its `tool.result`); over a call's records at most 64 KiB of `text` plus a
 * `[… N bytes truncated]` marker in the last.
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
> = schemas.ToolLogRecordSchema;
/** `tool.log`. */
export type ToolLogRecord = z.infer<typeof ToolLogRecordSchema>;

/**
 * `tool.progress`: a progress update of a running call (a module tool's `ctx.progress`, an
 * MCP server's `notifications/progress`), bounded per call.
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
> = schemas.ToolProgressRecordSchema;
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
> = schemas.HostWarningRecordSchema;
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
> = schemas.ToolCancelRecordSchema;
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
> = schemas.DiagnosticRecordSchema;
/** `diagnostic`. */
export type DiagnosticRecord = z.infer<typeof DiagnosticRecordSchema>;

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
> = schemas.TurnFinishedRecordSchema;
/** `turn.finished`. */
export type TurnFinishedRecord = z.infer<typeof TurnFinishedRecordSchema>;

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
        sign_in_required: "sign_in_required";
      }
    >;
    message: z.ZodString;
    exit_code: z.ZodInt;
    ts: z.ZodString;
    v: z.ZodLiteral<1>;
    type: z.ZodLiteral<"host.error">;
  },
  z.core.$strict
> = schemas.HostErrorRecordSchema;
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
> = schemas.SummaryRecordSchema;
/** Any summary record. */
export type SummaryRecord = z.infer<typeof SummaryRecordSchema>;

/** Distribute `Omit` over a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A record before the writer stamps `ts` and `v`. */
export type SummaryInput = DistributiveOmit<SummaryRecord, "ts" | "v">;
