/**
 * Client tool call bookkeeping (`client-tools.md` §3, §4, §6): call events, deadlines,
 * cancellation with grace, and multi-part results.
 *
 * @module
 */

import { CLIENT_TOOLS_LIMITS } from "../../protocol/limits.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import type { ClientToolResultParams } from "../../protocol/schemas/mod.ts";
import type { RegisteredTool } from "./definitions.ts";
import { utf8ByteLength } from "../../protocol/utf8.ts";

/** Why the backend cancels a call. */
export type CancelReason = "run_cancelled" | "deadline" | "shutdown" | "run_failed";

/** What the model sees of one tool call. */
export interface ToolResult {
  /** `failed`: the backend gave up (limit, output); `denied`: approval refused. */
  outcome: "success" | "error" | "cancelled" | "failed" | "denied";
  /** Error code for `error`/`failed`, or null. */
  errorCode: string | null;
  /** Result text. */
  text: string;
}

/** Event emission used by the book; resolves false when the event could not be enqueued. */
export type EmitCritical = (event: string, data: Record<string, unknown>) => Promise<boolean>;

interface Call {
  readonly id: string;
  readonly sessionId: string;
  readonly runId: string;
  readonly name: string;
  state: "outstanding" | "cancelling";
  nextPart: number;
  outcome: string | null;
  errorCode: string | null;
  bytes: number;
  texts: string[];
  timer: ReturnType<typeof setTimeout> | undefined;
  resolve: (result: ToolResult) => void;
}

/** Outstanding client tool calls of the child. */
export class CallBook {
  readonly #calls = new Map<string, Call>();
  readonly #emit: EmitCritical;
  readonly #graceMs: number;

  /** Create a book emitting through `emit`. */
  constructor(emit: EmitCritical, options: { graceMs?: number } = {}) {
    this.#emit = emit;
    this.#graceMs = options.graceMs ?? CLIENT_TOOLS_LIMITS.cancel_grace_ms;
  }

  /** Outstanding calls of `runId`. */
  outstanding(runId: string): number {
    let count = 0;
    for (const call of this.#calls.values()) if (call.runId === runId) count++;
    return count;
  }

  /** Emit one call and resolve with its final result. */
  async start(
    scope: { sessionId: string; runId: string },
    tool: RegisteredTool,
    args: Record<string, unknown>,
    options: { stopped?: () => { reason: CancelReason; grace: boolean } | null } = {},
  ): Promise<ToolResult> {
    const id = `call-${crypto.randomUUID()}`;
    const base = { session_id: scope.sessionId, run_id: scope.runId };
    await this.#emit("activity", {
      ...base,
      activity_id: id,
      kind: "tool",
      state: "started",
      name: tool.name,
      summary: `Client tool ${tool.name} started`,
    });
    const sent = await this.#emit("client.tool.call", {
      ...base,
      call_id: id,
      name: tool.name,
      tool_id: tool.toolId,
      arguments: args,
      deadline_ms: tool.timeoutMs,
    });
    if (!sent) return { outcome: "failed", errorCode: "output_unavailable", text: "" };
    return await new Promise<ToolResult>((resolve) => {
      const call: Call = {
        id,
        ...scope,
        name: tool.name,
        state: "outstanding",
        nextPart: 0,
        outcome: null,
        errorCode: null,
        bytes: 0,
        texts: [],
        timer: undefined,
        resolve,
      };
      call.timer = setTimeout(() => this.cancel(id, "deadline"), tool.timeoutMs);
      this.#calls.set(id, call);
      const stop = options.stopped?.() ?? null;
      if (stop !== null) this.cancel(id, stop.reason, { grace: stop.grace });
    });
  }

  /** Cancel one outstanding call; after grace (none when `grace` is false) finalize it. */
  cancel(callId: string, reason: CancelReason, options: { grace?: boolean } = {}): void {
    const call = this.#calls.get(callId);
    if (call === undefined || call.state !== "outstanding") return;
    call.state = "cancelling";
    clearTimeout(call.timer);
    const cancelled: ToolResult = {
      outcome: "cancelled",
      errorCode: reason === "deadline" ? "timeout" : null,
      text: reason === "deadline"
        ? "The tool call passed its deadline"
        : "The tool call was cancelled",
    };
    void this.#emit("client.tool.cancel", {
      session_id: call.sessionId,
      run_id: call.runId,
      call_id: call.id,
      reason,
    });
    if (options.grace === false) this.#finalize(call, cancelled);
    else call.timer = setTimeout(() => this.#finalize(call, cancelled), this.#graceMs);
  }

  /** Cancel every outstanding call of `runId`. */
  cancelRun(runId: string, reason: CancelReason, options: { grace?: boolean } = {}): void {
    for (const call of [...this.#calls.values()]) {
      if (call.runId === runId) this.cancel(call.id, reason, options);
    }
  }

  /** Record one result part (session and run already checked by the caller). */
  submit(
    params: ClientToolResultParams,
  ): { ok: true; complete: boolean } | { ok: false; code: ErrorCode } {
    const call = this.#calls.get(params.call_id);
    if (
      call === undefined || call.runId !== params.run_id || call.sessionId !== params.session_id
    ) {
      return { ok: false, code: "stale_call" };
    }
    const errorCode = params.error_code ?? null;
    if (params.part !== call.nextPart) return { ok: false, code: "invalid_params" };
    if (
      call.outcome !== null && (call.outcome !== params.outcome || call.errorCode !== errorCode)
    ) {
      return { ok: false, code: "invalid_params" };
    }
    const bytes = utf8ByteLength(params.text);
    if (
      params.part + 1 > CLIENT_TOOLS_LIMITS.result_parts ||
      call.bytes + bytes > CLIENT_TOOLS_LIMITS.result_bytes
    ) {
      this.#finalize(call, {
        outcome: "failed",
        errorCode: "content_limit",
        text: "The tool result exceeded the result limits and was discarded",
      });
      return { ok: false, code: "result_limit" };
    }
    call.outcome = params.outcome;
    call.errorCode = errorCode;
    call.bytes += bytes;
    call.texts.push(params.text);
    call.nextPart++;
    if (!params.last_part) return { ok: true, complete: false };
    this.#finalize(call, {
      outcome: params.outcome,
      errorCode,
      text: call.texts.join(""),
    });
    return { ok: true, complete: true };
  }

  #finalize(call: Call, result: ToolResult): void {
    if (this.#calls.get(call.id) !== call) return;
    this.#calls.delete(call.id);
    clearTimeout(call.timer);
    void this.#emit("activity", {
      session_id: call.sessionId,
      run_id: call.runId,
      activity_id: call.id,
      kind: "tool",
      state: result.outcome === "success" ? "completed" : "failed",
      name: call.name,
      summary: `Client tool ${call.name} ${result.outcome}`,
    });
    call.resolve(result);
  }
}
