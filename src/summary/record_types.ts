/**
 * The host's NDJSON summary records (`docs/summaries.md`), one type per record `type`: what
 * `run` prints, `runOneTurn` returns and `@magi/tools/records` exports. Every record has
 * `type`, `ts` (RFC 3339 UTC) and `v` (schema version 1). No raw tool arguments, no
 * reasoning, no secrets. Their schemas are in `records.ts`, built from `_record_schemas.ts`.
 *
 * @module
 */

import type { Effort } from "../protocol/schemas/common.ts";
import type { RecordErrorCode } from "../errors/codes.ts";
import type { EXIT_REASONS } from "./constants.ts";

/** The fields every record has, after the writer stamps them. */
export type RecordHead = {
  /** When the record was written, RFC 3339 UTC (`2026-01-02T03:04:05.678Z`). */
  ts: string;
  /** Summary schema version (`SUMMARY_VERSION`). */
  v: 1;
};

/** One tool of `host.ready`. */
export type HostReadyTool = {
  name: string;
  tool_id: string;
  effect: "read" | "write";
  /** `module` (a `--tools` module), `mcp` (an `mcpServers` entry) or `openapi`. */
  source: "module" | "mcp" | "openapi";
  /** The module's file as found, or the source's config key (e.g. `fs`). */
  source_name: string;
  /** How its declared permissions are enforced (docs/tools.md, "Enforcement levels"). */
  sandbox: "kernel+deno" | "deno" | "none";
};

/**
 * How a process-isolated tool's `memoryMb` is enforced (`rlimit`: the process's data limit;
 * `heap_only`: V8's heap cap only) and how the processes a tool starts end (`pid_namespace`:
 * with its process; `process_group`: only those that stay in its group), with the reason when
 * either is the weaker kind (docs/tools.md, "Memory and the processes a tool starts").
 */
export type ProcessLimits = {
  memory: "rlimit" | "heap_only";
  descendants: "pid_namespace" | "process_group";
  reason: string | null;
};

/** Which backend served (docs/summaries.md): its kind, its command's basename, where it was chosen. */
export type BackendInfo = {
  /** `magi-code`, the scripted `reference` backend, or an `other` command. */
  kind: "magi-code" | "reference" | "other";
  command: string;
  from: "flag" | "env" | "path" | "reference";
};

/** `host.ready`: the backend is initialized and the tools are registered. */
export type HostReadyRecord = {
  ts: string;
  v: 1;
  type: "host.ready";
  agent: string;
  instance_id: string;
  provider: string | null;
  model: string | null;
  capabilities: string[];
  tools: HostReadyTool[];
  /** Present when a tool module runs in its own process. */
  process_limits?: ProcessLimits;
  /** Present when the host runs without a process sandbox (`"node"`). */
  runtime?: "deno" | "node";
  /** Present (`"inline"`) when every tool runs inline in the host process (Node.js). */
  isolation?: "inline";
  /** Always written by this version; optional so that records of older versions still parse. */
  backend?: BackendInfo;
};

/** The provider/model/effort selection a resumed session runs with. */
export type SessionSelection = {
  provider: string | null;
  model: string | null;
  requested_effort: Effort;
  effective_effort: Effort | null;
};

/**
 * `session`: the attached session. A resumed session (`--session`) also has
 * `selection` (from `status` after `session.open`; null when the backend has
 * none, absent when its `status` has no `selection` field) and `notices`
 * (`session.open`'s, e.g. `saved_selection_unavailable`).
 */
export type SessionRecord = {
  ts: string;
  v: 1;
  type: "session";
  session_id: string;
  durable: boolean;
  resumed: boolean;
  selection?: SessionSelection | null;
  notices?: string[];
};

/**
 * `turn.started`: `turn.start` was admitted. A batch item's also has `attempt`: how many
 * times the item has been started in its output folder (2 and more: run again after a kill).
 */
export type TurnStartedRecord = {
  ts: string;
  v: 1;
  type: "turn.started";
  session_id: string;
  run_id: string;
  attempt?: number;
};

/** `input.persisted`: from here the session ID may be saved for `--session`. */
export type InputPersistedRecord = {
  ts: string;
  v: 1;
  type: "input.persisted";
  session_id: string;
  run_id: string;
  message_id: string;
  revision: string;
};

/** `message`: one reconciled assistant segment. */
export type MessageRecord = {
  ts: string;
  v: 1;
  type: "message";
  run_id: string;
  message_id: string;
  text: string;
  partial: boolean;
};

/** `message.delta`: a best-effort display chunk (only with `--deltas`). */
export type MessageDeltaRecord = {
  ts: string;
  v: 1;
  type: "message.delta";
  run_id: string;
  message_id: string;
  part: number;
  text: string;
};

/** `activity`: a backend activity (tool, subagent, compaction). */
export type ActivityRecord = {
  ts: string;
  v: 1;
  type: "activity";
  run_id: string;
  activity_id: string;
  kind: "tool" | "subagent" | "compaction";
  state: "started" | "completed" | "failed";
  name: string;
  summary: string;
};

/**
 * `approval`: an approval request and how it was decided: the backend's (`approval_id`) or
 * the host's own question before a write tool call runs (`call_id`).
 */
export type ApprovalRecord = {
  ts: string;
  v: 1;
  type: "approval";
  run_id: string;
  /** The backend's `approval.requested` (absent for a question the host asked at call time). */
  approval_id?: string;
  /** The call the host asked about before running it (absent for the backend's approval). */
  call_id?: string;
  summary: string;
  decision: "allow" | "deny";
  decided_by: "flag" | "config" | "user" | "expiry" | "host";
  /** The approval rule that decided it (`allow=file_ticket`), with approval rules. */
  rule?: string;
  recorded: boolean;
};

/**
 * `tool.call`: the backend asked for a call (arguments are not echoed, only
 * their size; the terminal view, `--format text`, asks for a shortened
 * `arguments_preview` of at most 200 UTF-8 bytes of compact JSON, cut with `…`).
 */
export type ToolCallRecord = {
  ts: string;
  v: 1;
  type: "tool.call";
  run_id: string;
  call_id: string;
  name: string;
  tool_id: string;
  arguments_bytes: number;
  deadline_ms: number;
  arguments_preview?: string;
  /** With `--record-args`: the call's arguments, configured secrets redacted. */
  arguments?: Record<string, unknown>;
  via?: string;
};

/** `tool.result`: the call's outcome and how the backend took the result. */
export type ToolResultRecord = {
  ts: string;
  v: 1;
  type: "tool.result";
  run_id: string;
  call_id: string;
  name: string;
  via?: string;
  outcome: "success" | "error" | "cancelled";
  /** With `--record-args`, a tool with an output schema: its validated value, redacted. */
  structured?: Record<string, unknown>;
  error_code: string | null;
  bytes: number;
  parts: number;
  duration_ms: number;
  abandoned: boolean;
  killed: boolean;
  delivery: "complete" | "rejected" | "failed";
  delivery_error: string | null;
};

/**
 * `tool.log`: a process-isolated call's captured output (console, stdout and
 * stderr writes), streamed while the call runs (one record per 200 ms window of output, the
 * rest before its `tool.result`); over a call's records at most 64 KiB of `text` plus a
 * `[… N bytes truncated]` marker in the last.
 */
export type ToolLogRecord = {
  ts: string;
  v: 1;
  type: "tool.log";
  run_id: string;
  call_id: string;
  name: string;
  text: string;
  bytes: number;
  truncated_bytes: number;
};

/**
 * `tool.progress`: a progress update of a running call (a module tool's `ctx.progress`, an
 * MCP server's `notifications/progress`), bounded per call.
 */
export type ToolProgressRecord = {
  ts: string;
  v: 1;
  type: "tool.progress";
  run_id: string;
  call_id: string;
  name: string;
  progress: number;
  total?: number;
  message?: string;
};

/**
 * `host.warning`: something the run continues without, e.g. an optional MCP
 * server that did not start (`source_unavailable`) or a server that exited
 * mid-run (`source_exited`).
 */
export type HostWarningRecord = {
  ts: string;
  v: 1;
  type: "host.warning";
  code: string;
  message: string;
  /** The source at fault, as `<kind>:<name>` (e.g. `mcp:fs`). */
  source?: string;
};

/** `tool.cancel`: the backend cancelled a call. */
export type ToolCancelRecord = {
  ts: string;
  v: 1;
  type: "tool.cancel";
  run_id: string;
  call_id: string;
  reason: "run_cancelled" | "deadline" | "shutdown" | "run_failed";
};

/** `diagnostic`: a backend diagnostic (redacted summary). */
export type DiagnosticRecord = {
  ts: string;
  v: 1;
  type: "diagnostic";
  run_id: string;
  code: string;
  summary: string;
};

/** `turn.finished`: the run's terminal accounting and the exit code the host will use. */
export type TurnFinishedRecord = {
  ts: string;
  v: 1;
  type: "turn.finished";
  session_id: string;
  run_id: string;
  outcome: "completed" | "cancelled" | "failed";
  persistence: "durable" | "degraded" | "not_started";
  revision: string | null;
  error_code: string | null;
  cancelled_by: "signal" | "timeout" | null;
  exit_code: number;
  /**
   * Present only when `exit_code` is not the one `outcome` implies (0 for
   * `completed`): why. See {@link EXIT_REASONS}.
   */
  exit_reason?: typeof EXIT_REASONS[number] | undefined;
};

/** `host.error`: why the host stops abnormally (a fixed code and a short message). */
export type HostErrorRecord = {
  ts: string;
  v: 1;
  type: "host.error";
  code: RecordErrorCode;
  message: string;
  exit_code: number;
};

/** Any summary record. */
export type SummaryRecord =
  | HostReadyRecord
  | SessionRecord
  | TurnStartedRecord
  | InputPersistedRecord
  | MessageRecord
  | MessageDeltaRecord
  | ActivityRecord
  | ApprovalRecord
  | ToolCallRecord
  | ToolResultRecord
  | ToolLogRecord
  | ToolCancelRecord
  | ToolProgressRecord
  | HostWarningRecord
  | DiagnosticRecord
  | TurnFinishedRecord
  | HostErrorRecord;

/** Distribute `Omit` over a union. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A record before the writer stamps `ts` and `v`. */
export type SummaryInput = DistributiveOmit<SummaryRecord, "ts" | "v">;
