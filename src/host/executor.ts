/**
 * The tool executor: one `client.tool.call` in, one bounded result out.
 *
 * Order of work for a call: look the tool up by name and `tool_id`
 * (`unknown_tool`, nothing runs) → validate the arguments with the tool's zod
 * schema (`invalid_arguments`) → wait for one of `concurrent_calls` slots
 * (FIFO) → run the tool with an `AbortSignal` that fires on the caller's
 * signal, the backend's deadline or the tool's own `timeoutMs` → turn the
 * return value into text, check `result_bytes`/`result_parts`, split it.
 *
 * When the signal fires, the tool gets `graceMs` to settle. A tool that does
 * not is abandoned: the call is answered without it and its slot is freed.
 * Tools run inline in the host process, so an abandoned tool cannot be killed
 * (the process sandbox is a later issue); its eventual result is ignored.
 *
 * {@link ToolExecutor.execute} never rejects and the host survives any tool.
 *
 * @module
 */

import { requestFrame } from "../protocol/envelope.ts";
import { encodedFrameBytes } from "../protocol/framing.ts";
import { type ClientToolsLimits, ID_BYTES, INPUT_FRAME_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/schemas/common.ts";
import type { ToolContext } from "./define.ts";
import type { RegisteredTool, ToolRegistry } from "./registry.ts";
import { resultToText, splitResultText } from "./result.ts";
import { formatIssues, truncateText } from "./_text.ts";
import { Slots } from "./_slots.ts";

/** One `client.tool.call`, as the session hands it over. */
export interface ToolCallRequest {
  /** The backend's `call_id`. */
  readonly callId: string;
  /** Tool name as the backend sent it. */
  readonly name: string;
  /** `tool_id` as the backend sent it. */
  readonly toolId: string;
  /** Arguments as the model produced them (not validated by the backend). */
  readonly arguments: unknown;
  /** Milliseconds from emission until the backend gives up on the call. */
  readonly deadlineMs: number;
  /** Session of the call. */
  readonly sessionId: string;
  /** Run of the call. */
  readonly runId: string;
}

/** `client.tool.result` outcome. */
export type ToolCallOutcome = "success" | "error" | "cancelled";

/** What to send back for one call. */
export interface ToolCallResult {
  /** The outcome on every part. */
  readonly outcome: ToolCallOutcome;
  /** With `outcome:"error"`: `unknown_tool`, `invalid_arguments`, `tool_failed`, `timeout` or `result_too_large`. */
  readonly errorCode?: string;
  /** The whole text the model sees. */
  readonly text: string;
  /** `text` split for `client.tool.result` (at least one part). */
  readonly parts: readonly string[];
  /** UTF-8 bytes of `text`. */
  readonly bytes: number;
  /** Wall time from `execute` to the answer, ms. */
  readonly durationMs: number;
  /** The tool ignored its signal past the grace period and was left running. */
  readonly abandoned: boolean;
}

/** Options of {@link ToolExecutor}. */
export interface ExecutorOptions {
  /** The descriptor's limits (never copied numbers). */
  limits: ClientToolsLimits;
  /** Working directory handed to tools as `ctx.cwd`. */
  cwd: string;
  /** How long a signalled tool may take to settle; default `limits.cancel_grace_ms`. */
  graceMs?: number;
  /**
   * Bytes (excluding LF) of a `client.tool.result` request frame whose `text`
   * is `""`. Default: measured with 64-byte IDs and error code, the longest
   * outcome and part number, so it is never too small.
   */
  envelopeBytes?: number;
}

const MAX_TIMER_MS = 2_147_483_647;

type Stop =
  | { readonly kind: "cancel" }
  | { readonly kind: "deadline"; readonly ms: number }
  | { readonly kind: "timeout"; readonly ms: number };

type Settled =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "thrown"; readonly error: unknown }
  | { readonly kind: "abandoned" };

interface Answer {
  readonly outcome: ToolCallOutcome;
  readonly errorCode?: string;
  readonly text: string;
  readonly abandoned?: boolean;
}

/** Runs registered tools for `client.tool.call` events, within the descriptor's limits. */
export class ToolExecutor {
  readonly #registry: ToolRegistry;
  readonly #limits: ClientToolsLimits;
  readonly #cwd: string;
  readonly #graceMs: number;
  readonly #envelopeBytes: number;
  readonly #slots: Slots;

  /** An executor for `registry`'s tools. */
  constructor(registry: ToolRegistry, options: ExecutorOptions) {
    this.#registry = registry;
    this.#limits = options.limits;
    this.#cwd = options.cwd;
    this.#graceMs = options.graceMs ?? options.limits.cancel_grace_ms;
    this.#envelopeBytes = options.envelopeBytes ?? defaultEnvelopeBytes(options.limits);
    this.#slots = new Slots(options.limits.concurrent_calls);
  }

  /** Calls currently holding a slot (running, not queued, not abandoned). */
  get running(): number {
    return this.#slots.held;
  }

  /**
   * Execute one call. `signal` is the caller's stop: `client.tool.cancel`,
   * turn cancel or shutdown; it makes the answer `cancelled`. Never rejects.
   *
   * @example
   * ```ts ignore
   * const result = await executor.execute(call, controller.signal);
   * for (const [part, text] of result.parts.entries()) send({ part, text, outcome: result.outcome });
   * ```
   */
  async execute(call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallResult> {
    const started = performance.now();
    let answer: Answer;
    try {
      answer = await this.#answer(call, signal, started);
    } catch (error) {
      // Only a host bug gets here; still answer.
      console.error(error);
      answer = { outcome: "error", errorCode: "tool_failed", text: "Tool host failed internally" };
    }
    return this.#finish(answer, started);
  }

  async #answer(call: ToolCallRequest, signal: AbortSignal, started: number): Promise<Answer> {
    const entry = this.#registry.get(call.name);
    if (entry === undefined || entry.toolId !== call.toolId) {
      const name = truncateText(String(call.name), 64);
      const why = entry === undefined ? "" : " (tool_id does not match the registered definition)";
      return { outcome: "error", errorCode: "unknown_tool", text: `Unknown tool: ${name}${why}` };
    }
    const parsed = entry.tool.input.safeParse(call.arguments);
    if (!parsed.success) {
      return {
        outcome: "error",
        errorCode: "invalid_arguments",
        text: `Invalid arguments: ${formatIssues(parsed.error.issues)}`,
      };
    }
    if (signal.aborted) return stopped({ kind: "cancel" }, false, this.#graceMs);

    const stop = new AbortController();
    // Timers overflow past 2^31-1 ms; a non-finite deadline falls back to the largest allowed.
    const deadlineMs = Number.isFinite(call.deadlineMs)
      ? Math.min(Math.max(0, call.deadlineMs), MAX_TIMER_MS)
      : this.#limits.max_timeout_ms;
    const deadlineAt = Date.now() - (performance.now() - started) + deadlineMs;
    const onCancel = () => stop.abort({ kind: "cancel" } satisfies Stop);
    signal.addEventListener("abort", onCancel, { once: true });
    const deadlineTimer = setTimeout(
      () => stop.abort({ kind: "deadline", ms: deadlineMs } satisfies Stop),
      deadlineMs - (performance.now() - started),
    );
    try {
      const acquired = await this.#slots.acquire(stop.signal);
      if (!acquired) return stopped(stop.signal.reason as Stop, false, this.#graceMs);
      let released = false;
      const release = () => {
        if (!released) this.#slots.release();
        released = true;
      };
      try {
        const settled = await this.#run(entry, parsed.data, call, {
          stop,
          deadlineAt,
        });
        // A grace timer only starts once the signal fired, so "abandoned" implies aborted.
        if (stop.signal.aborted || settled.kind === "abandoned") {
          const reason = (stop.signal.reason ?? { kind: "cancel" }) as Stop;
          return stopped(reason, settled.kind === "abandoned", this.#graceMs);
        }
        if (settled.kind === "thrown") return failed(entry, settled.error);
        return this.#success(settled.value);
      } finally {
        release();
      }
    } finally {
      clearTimeout(deadlineTimer);
      signal.removeEventListener("abort", onCancel);
    }
  }

  async #run(
    entry: RegisteredTool,
    args: Record<string, unknown>,
    call: ToolCallRequest,
    control: { stop: AbortController; deadlineAt: number },
  ): Promise<Settled> {
    const { stop } = control;
    const timeoutMs = entry.tool.timeoutMs;
    const timeoutTimer = timeoutMs === undefined ? undefined : setTimeout(
      () => stop.abort({ kind: "timeout", ms: timeoutMs } satisfies Stop),
      timeoutMs,
    );
    const ctx: ToolContext = Object.freeze({
      signal: stop.signal,
      callId: call.callId,
      sessionId: call.sessionId,
      runId: call.runId,
      deadline: Math.min(
        control.deadlineAt,
        timeoutMs === undefined ? Infinity : Date.now() + timeoutMs,
      ),
      cwd: this.#cwd,
    });
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let onStop: (() => void) | undefined;
    try {
      return await new Promise<Settled>((resolve) => {
        onStop = () => {
          graceTimer = setTimeout(() => resolve({ kind: "abandoned" }), this.#graceMs);
        };
        // Inside the executor so a synchronous throw becomes a rejection.
        new Promise<unknown>((settle) => settle(entry.tool.run(args, ctx))).then(
          (value) => resolve({ kind: "value", value }),
          (error: unknown) => resolve({ kind: "thrown", error }),
        );
        if (stop.signal.aborted) onStop();
        else stop.signal.addEventListener("abort", onStop, { once: true });
      });
    } finally {
      clearTimeout(timeoutTimer);
      clearTimeout(graceTimer);
      if (onStop !== undefined) stop.signal.removeEventListener("abort", onStop);
    }
  }

  #success(value: unknown): Answer {
    let text: string;
    try {
      text = resultToText(value);
    } catch (error) {
      return {
        outcome: "error",
        errorCode: "tool_failed",
        text: truncateText((error as Error).message, 1024),
      };
    }
    const bytes = utf8ByteLength(text);
    const limit = this.#limits.result_bytes;
    if (bytes > limit) {
      return {
        outcome: "error",
        errorCode: "result_too_large",
        text: `Result too large: ${bytes} bytes exceeds the limit of ${limit} bytes`,
      };
    }
    const parts = this.#split(text).length;
    if (parts > this.#limits.result_parts) {
      return {
        outcome: "error",
        errorCode: "result_too_large",
        text:
          `Result too large: ${bytes} bytes needs ${parts} parts, more than the limit of ${this.#limits.result_parts} parts`,
      };
    }
    return { outcome: "success", text };
  }

  #split(text: string): string[] {
    return splitResultText(text, {
      partBytes: this.#limits.result_part_bytes,
      frameBytes: INPUT_FRAME_BYTES,
      envelopeBytes: this.#envelopeBytes,
    });
  }

  #finish(answer: Answer, started: number): ToolCallResult {
    const result: ToolCallResult = {
      outcome: answer.outcome,
      text: answer.text,
      parts: Object.freeze(this.#split(answer.text)),
      bytes: utf8ByteLength(answer.text),
      durationMs: Math.round(performance.now() - started),
      abandoned: answer.abandoned ?? false,
      ...(answer.errorCode === undefined ? {} : { errorCode: answer.errorCode }),
    };
    return Object.freeze(result);
  }
}

function stopped(stop: Stop, abandoned: boolean, graceMs: number): Answer {
  const left = abandoned
    ? `; the tool did not stop within ${graceMs} ms of being signalled and was abandoned`
    : "";
  if (stop.kind === "cancel") {
    return { outcome: "cancelled", text: `Tool call cancelled${left}`, abandoned };
  }
  const limit = stop.kind === "deadline"
    ? `the call deadline of ${stop.ms} ms passed`
    : `the tool's timeout of ${stop.ms} ms passed`;
  return {
    outcome: "error",
    errorCode: "timeout",
    text: `Tool call timed out: ${limit}${left}`,
    abandoned,
  };
}

function failed(entry: RegisteredTool, error: unknown): Answer {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    `Tool ${entry.tool.name} (${entry.file}) failed:`,
    error instanceof Error ? (error.stack ?? message) : message,
  );
  const text = message.trim() === ""
    ? "Tool failed without a message"
    : truncateText(message, 1024);
  return { outcome: "error", errorCode: "tool_failed", text };
}

function defaultEnvelopeBytes(limits: ClientToolsLimits): number {
  const id = "x".repeat(ID_BYTES);
  const frame = requestFrame(id, "client.tool.result", {
    session_id: id,
    run_id: id,
    call_id: id,
    part: Math.max(0, limits.result_parts - 1),
    last_part: false,
    outcome: "cancelled",
    error_code: "e".repeat(ID_BYTES),
    text: "",
  });
  return encodedFrameBytes(frame) - 1;
}
