/**
 * The call contract between the front doors (the `client.tools` session, and later MCP, `call`,
 * the inspector) and the executor: one call in ({@link ToolCallRequest}), one result out
 * ({@link ToolCallResult}), never a rejection ({@link CallExecutor}). `ToolExecutor` implements
 * it; `ToolCallSession` uses it. The texts of results that are not a success are built in
 * `answers.ts`.
 *
 * @module
 */

import type { ContentPart } from "./content.ts";

/** One tool call, as a front door hands it to the executor. */
export interface ToolCallRequest {
  /** The backend's `call_id`. */
  readonly callId: string;
  /** Tool name as the backend sent it. */
  readonly name: string;
  /** `tool_id` as the backend sent it. */
  readonly toolId: string;
  /** Arguments as the model produced them (not validated yet). */
  readonly arguments: unknown;
  /** Milliseconds from emission until the backend gives up on the call. */
  readonly deadlineMs: number;
  /** Session of the call. */
  readonly sessionId: string;
  /** Run of the call. */
  readonly runId: string;
  /** The attempt of the call's unit of work (`ToolContext.attempt`); default 1. */
  readonly attempt?: number;
  /**
   * The caller's W3C trace context (e.g. MCP `_meta.traceparent`): the call's span becomes its
   * child. Without it, a `run` turn's span is the parent (`src/telemetry`). Telemetry only.
   */
  readonly traceparent?: string;
  /** How the call was approved before it reached the executor (telemetry only). */
  readonly approval?: string;
}

/** `client.tool.result` outcome. */
export type ToolCallOutcome = "success" | "error" | "cancelled";

/** The error codes the executor answers with (`outcome: "error"`). */
export type ToolErrorCode =
  | "unknown_tool"
  | "invalid_arguments"
  /** The result does not match the tool's `output` schema. */
  | "invalid_output"
  | "tool_failed"
  | "permission_denied"
  | "tool_crashed"
  | "timeout"
  | "result_too_large"
  /** An external source's own code (`ExternalToolError.code`), e.g. `tool_unavailable`, `http_404`. */
  | (string & Record<never, never>);

/** What to send back for one call. */
export interface ToolCallResult {
  /** The outcome on every part. */
  readonly outcome: ToolCallOutcome;
  /** With `outcome: "error"`: one of {@link ToolErrorCode}. */
  readonly errorCode?: string;
  /** The whole text the model sees. */
  readonly text: string;
  /** `text` split for `client.tool.result` (at least one part). */
  readonly parts: readonly string[];
  /**
   * Per part, whether it is plain ASCII (no C0 controls: its frame can be written around it
   * without escaping it); absent when unknown (`SizedSplit.plainAscii` in `result.ts`).
   */
  readonly plainAscii?: readonly boolean[];
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
  /** Wall time from `execute` to the answer, ms. */
  readonly durationMs: number;
  /** An inline tool ignored its signal past the grace period and was left running. */
  readonly abandoned: boolean;
  /** A process-isolated tool ignored its signal past the grace period and its process was killed. */
  readonly killed: boolean;
  /** Present when the result was over the tool's `maxResultBytes` and was cut or spilled. */
  readonly overflow?: ResultOverflowInfo;
  /**
   * A rich result's parts (text, image, audio, resource link; `content.ts`): `mcp` sends them as
   * MCP content; `text` is their text form (media named by their saved files, or described).
   */
  readonly content?: readonly ContentPart[];
}

/** How a result over the tool's `maxResultBytes` was made to fit. */
export interface ResultOverflowInfo {
  /** The tool's overflow policy that applied. */
  readonly policy: "truncate" | "spill";
  /** UTF-8 bytes of the whole result. */
  readonly bytes: number;
  /** Bytes of the result the text holds. */
  readonly kept: number;
  /** `spill`: the file holding the whole result (absolute path). */
  readonly file?: string;
}

/** Runs calls (`ToolExecutor` implements it). */
export interface CallExecutor {
  /** Run one call; resolves with its result, never rejects. */
  execute(call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallResult>;
  /**
   * The real tool a call of a catalog dispatcher (`tool_call`, `tool_call_write`) runs, for
   * the summary records; null (or absent) when the call runs the tool it names.
   */
  route?(
    name: string,
    args: unknown,
  ): { readonly name: string; readonly toolId: string; readonly via: string } | null;
}
