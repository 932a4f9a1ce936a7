/**
 * The record of one direct call (`call --json`, and the inspector's call answer): the fields
 * of a `tool.result` summary record without the backend's, plus the text and its parts.
 *
 * @module
 */

import type { DirectCallResult } from "../call/direct_call.ts";

/** The `--json` record: `tool.result`'s fields (no backend ones) plus the text and its parts. */
export interface CallRecord {
  /** Always `call.result`. */
  type: "call.result";
  /** Tool name. */
  name: string;
  /** The registered `tool_id`. */
  tool_id: string;
  /** The call ID the tool saw. */
  call_id: string;
  /** `success`, `error` or `cancelled`. */
  outcome: "success" | "error" | "cancelled";
  /** With `error`: the code (`invalid_arguments`, `tool_failed`, `timeout`, …), else null. */
  error_code: string | null;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** Number of parts. */
  parts: number;
  /** Wall time, ms. */
  duration_ms: number;
  /** The deadline the call ran under, ms. */
  deadline_ms: number;
  /** An inline tool ignored its signal and was abandoned. */
  abandoned: boolean;
  /** A process tool ignored its signal and was killed. */
  killed: boolean;
  /** The whole result text. */
  text: string;
  /** `text` split as `client.tool.result` parts would carry it. */
  part_texts: string[];
  /** The call's captured tool output (process-isolated tools), or null. */
  log: string | null;
  /**
   * Only for a tool that declares `output`: the validated result as JSON (an object), or null
   * when the call did not succeed.
   */
  structured?: Record<string, unknown> | null;
  /**
   * Only when the result was over the tool's `maxResultBytes` and was cut (`truncate`) or
   * written to a file (`spill`): the policy, the whole result's bytes, the bytes kept, the file.
   */
  overflow?: { policy: "truncate" | "spill"; bytes: number; kept: number; file?: string };
  /**
   * Only for a rich result (`content(...)`): its parts, images and audio with their base64
   * `data` (`text` is their text form, naming the saved files).
   */
  content?: Record<string, unknown>[];
}

/** The `--json` record of `result`. */
export function callRecord(
  result: DirectCallResult,
  log: string | null,
  typed = false,
): CallRecord {
  const record: CallRecord = {
    type: "call.result",
    name: result.name,
    tool_id: result.toolId,
    call_id: result.callId,
    outcome: result.outcome,
    error_code: result.errorCode ?? null,
    bytes: result.bytes,
    parts: result.parts.length,
    duration_ms: Math.round(result.durationMs),
    deadline_ms: result.deadlineMs,
    abandoned: result.abandoned,
    killed: result.killed,
    text: result.text,
    part_texts: [...result.parts],
    log,
  };
  if (result.overflow !== undefined) record.overflow = { ...result.overflow };
  if (result.content !== undefined) record.content = result.content.map((part) => ({ ...part }));
  if (typed) {
    // The executor validated it against the output schema (an object) before it left.
    record.structured = result.outcome === "success"
      ? JSON.parse(result.text) as Record<string, unknown>
      : null;
  }
  return record;
}
