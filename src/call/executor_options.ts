/**
 * The options of a `ToolExecutor` (`executor.ts`): the descriptor's limits, where a call's
 * output, progress, records and failures go, approval and hooks, and how tools are contained.
 *
 * @module
 */

import type { ClientToolsLimits } from "../protocol/limits.ts";
import type { ToolProgress } from "../tool/external.ts";
import type { ToolCallRequest } from "../tool/call.ts";
import type { ResultOverflow } from "../tool/define.ts";
import type { Clock } from "../async/clock.ts";
import type { CallApprover } from "./approval.ts";
import type { CallHooks } from "./hooks.ts";
import type { ToolLog } from "../sandbox/log_buffer.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import type { ProcessLimits } from "../sandbox/containment.ts";
import type { ToolFailure } from "./settle.ts";
import type { CallRecords } from "./records.ts";

/** Options of `ToolExecutor`. */
export interface ExecutorOptions {
  /** The descriptor's limits (never copied numbers). */
  limits: ClientToolsLimits;
  /** Working directory handed to tools as `ctx.cwd`. */
  cwd: string;
  /**
   * How long a signalled tool may take to settle; default
   * `answerGraceMs(limits.cancel_grace_ms)` (`deadline.ts`), so the answer reaches the
   * backend within its cancel grace.
   */
  graceMs?: number;
  /**
   * Bytes (excluding LF) of a `client.tool.result` request frame whose `text`
   * is `""`. Default: measured with 64-byte IDs and error code, the longest
   * outcome and part number, so it is never too small.
   */
  envelopeBytes?: number;
  /**
   * Receives each process-isolated call's captured output (console and
   * stdout/stderr writes, at most 64 KiB per call plus a truncation marker) while the call
   * runs: coalesced, at most once per `LOG_FLUSH_MS` (200 ms), and what is left before
   * `execute` resolves. Inline tools' output is not captured (it goes to the host's stderr).
   * With the call it belongs to (its run: `call.runId`).
   */
  onLog?: (log: ToolLog, call: ToolCallRequest) => void;
  /**
   * The `tool.*` records of the calls (`records.ts`): each call's `tool.log` (what `onLog` gets)
   * and `tool.progress` (what `onProgress` gets) is built there and handed to its sink, before
   * `onLog`/`onProgress` hear of it; default none.
   */
  records?: CallRecords;
  /**
   * Receives the host's report of a call that failed because the tool threw
   * (or an external tool's source failed) or its process crashed: one line
   * naming the tool, file and error, and the tool's own stack frames (the
   * host's runner frames cut off). Default: both written to stderr.
   */
  onToolFailure?: (failure: ToolFailure) => void;
  /** The `deno` executable for tool processes; default the running one (`runtimeExecutable()`). */
  denoPath?: string;
  /**
   * Receives each progress update of a call (a module tool's `ctx.progress`, an MCP server's
   * `notifications/progress`), with the call's ID and the tool's name, bounded per call
   * (`progress.ts`: unchanged updates dropped, 10 at once, then 10 a second; the newest held
   * one before `execute` resolves). Nothing after the call was stopped. Last, the call itself
   * (its run: `call.runId`).
   */
  onProgress?: (
    callId: string,
    name: string,
    progress: ToolProgress,
    call: ToolCallRequest,
  ) => void;
  /**
   * The kernel layer under process-isolated tools (Landlock, Linux): `"auto"` (default)
   * probes the kernel on first use; `"off"` runs them with Deno's permission checks only;
   * or the caller's own {@link KernelSupport} (probed once at startup).
   */
  kernelSandbox?: "auto" | "off" | KernelSupport | Promise<KernelSupport>;
  /**
   * Asks before a `write` tool runs (`approval.ts`): when it `asks()`, after the
   * arguments were validated (a process tool's against its `input_schema` in the host) and
   * before the call takes a slot, with a signal that fires on the call's cancel or deadline. A
   * refusal is answered `approval_denied`; absent (or not asking), write tools run without
   * asking (the backend's approval was the gate).
   */
  approveCall?: CallApprover;
  /**
   * The current hooks around each call (`hooks.ts`): `beforeCall` may refuse a call before
   * it runs, `afterCall` may rewrite its result's text. Called per call; undefined: none.
   */
  callHooks?: () => CallHooks | undefined;
  /**
   * What stderr gets when a tool throws: `"stack"` (default) the error's first line and the
   * tool's own stack frames, for tool authors; `"line"` one line naming the tool, its file and
   * the message, no frames (`magi-tools mcp`,
   * whose stderr MCP clients show in their logs). The model's answer is the same either way.
   */
  failureDetail?: "stack" | "line";
  /**
   * How memory caps and a tool's own processes are contained (`sandbox/containment.ts`);
   * default probed on first use.
   */
  processLimits?: ProcessLimits;
  /**
   * The clock of the executor's own timers (call deadlines, tools' `timeoutMs`, the grace of
   * a signalled inline tool) and of `durationMs`; default `REAL_CLOCK`. Tool processes
   * keep the real timers. `ctx.deadline` stays wall-clock time (`Date.now()`).
   */
  clock?: Clock;
  /**
   * The result bound and overflow policy of tools that declare none (`mcp --max-result-bytes`,
   * `--overflow`); default the protocol's `result_bytes` and `"error"`. A tool's own
   * `maxResultBytes`/`overflow` (or its API's or server's in the config) win; a tool with an
   * `output` schema keeps `"error"`.
   */
  resultDefaults?: { readonly maxResultBytes?: number; readonly overflow?: ResultOverflow };
  /**
   * Save each image or audio part of a rich result to a file under `.magi-tools/results/` and
   * name it in the result text (default true: the `client.tools` path carries text only). Off
   * for `mcp`, which sends the parts as MCP content.
   */
  saveMedia?: boolean;
}
