/**
 * The tool executor: one `client.tool.call` in, one bounded result out. Each tool kind
 * (`registry.ts`' `ToolKind`: inline, process, external) has its runner in `runners/`;
 * `settle.ts` turns what a runner settles with into the answer and the result.
 *
 * Order of work for a call: look the tool up by name and `tool_id`
 * (`unknown_tool`, nothing runs) → validate the arguments with the tool's zod
 * schema (`invalid_arguments`; a process tool known only by its description
 * is validated by its own process, with the same answer) → wait for one of `concurrent_calls` slots
 * (FIFO) → run the tool with an `AbortSignal` that fires on the caller's
 * signal, the backend's deadline or the tool's own `timeoutMs` → turn the
 * return value into text, check `result_bytes`/`result_parts`, split it.
 *
 * Where a tool runs: by default in its own warm `deno run` process with
 * exactly its declared permissions (`sandbox/process_runner.ts`, imported
 * lazily, Deno only); with `isolation: "inline"`, or wherever the runtime has
 * no process sandbox (Node.js: `supportsProcessIsolation()` is false),
 * in the host process.
 *
 * External tools (`external.ts`: MCP servers, OpenAPI operations) take the
 * same path: their arguments are checked by the source's `validate`
 * (`invalid_arguments`), they run in the host (the work happens in the
 * source) with the same signal, deadline, grace and result bounds, and an
 * `ExternalToolError` is answered with its own `error_code`.
 *
 * When the signal fires, the tool gets `graceMs` to settle. A process-isolated
 * tool that does not is killed (SIGKILL) and its process replaced; an inline
 * tool cannot be killed, so it is abandoned: the call is answered without it,
 * its slot is freed and its eventual result is ignored.
 *
 * {@link ToolExecutor.execute} never rejects and the host survives any tool.
 *
 * @module
 */

import type { ClientToolsLimits } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import type { RegisteredToolOf, ToolRegistry, ToolSourceInfo } from "../toolset/registry.ts";
import type { AnyTool } from "../sandbox/description.ts";
import {
  type Answer,
  hostFailed,
  invalidArgumentsReason,
  resultTooLarge,
  type Stop,
  stopped,
  unknownTool,
  writeToolNotRun,
} from "../tool/answers.ts";
import type { ToolCallRequest, ToolCallResult } from "../tool/call.ts";
import { Slots } from "./_slots.ts";
import { SharedDeadlines } from "./_deadlines.ts";
import { type Clock, REAL_CLOCK } from "../async/clock.ts";
import { argumentView, type CallApprover } from "./approval.ts";
import { sourceName } from "./approval_rules.ts";
import { afterCallAnswer, beforeCallAnswer, type CallHooks, type HookedCall } from "./hooks.ts";
import { TELEMETRY } from "../telemetry/mod.ts";
import { endCallSpan, startCallSpan } from "./telemetry.ts";
import { defaultEnvelopeBytes, errorText, logFailure, Settle } from "./settle.ts";
import { answerGraceMs, deliveryMarginMs, MAX_TIMER_MS } from "./deadline.ts";
import { type RunControl, runnerEnv, type Runners, type ToolRunner } from "./runners/runner.ts";
import { InlineRunner } from "./runners/inline.ts";
import { ExternalRunner } from "./runners/external.ts";
import { ProcessToolRunner } from "./runners/process.ts";
import type { ExecutorOptions } from "./executor_options.ts";

/** A call as the hooks see it. */
function hookedCall(call: ToolCallRequest): HookedCall {
  return { callId: call.callId, runId: call.runId, name: call.name, arguments: call.arguments };
}

export type { ToolFailure } from "./settle.ts";
export { answerGraceMs, DELIVERY_MARGIN_MS, deliveryMarginMs } from "./deadline.ts";

export type { ExecutorOptions } from "./executor_options.ts";
export type { ToolLog } from "../sandbox/log_buffer.ts";
export type { ToolCallOutcome, ToolCallRequest, ToolCallResult } from "../tool/call.ts";

const ONCE = Object.freeze({ once: true });

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `onLog` and `onProgress` the runners get: `options.records` builds and sinks first. */
function recording(options: ExecutorOptions): Pick<ExecutorOptions, "onLog" | "onProgress"> {
  const { records, onLog, onProgress } = options;
  if (records === undefined) return options;
  return {
    onLog: (log, call) => {
      records.log(call, log);
      onLog?.(log, call);
    },
    onProgress: (callId, name, update, call) => {
      records.progress(call, name, update);
      onProgress?.(callId, name, update, call);
    },
  };
}

/** Runs registered tools for `client.tool.call` events, within the descriptor's limits. */
export class ToolExecutor {
  readonly #registry: ToolRegistry;
  readonly #limits: ClientToolsLimits;
  readonly #graceMs: number;
  readonly #slots: Slots;
  readonly #clock: Clock;
  readonly #deadlines: SharedDeadlines;
  readonly #approveCall: CallApprover | undefined;
  readonly #callHooks: (() => CallHooks | undefined) | undefined;
  readonly #settle: Settle;
  readonly #runners: Runners;
  readonly #process: ProcessToolRunner;

  /** An executor for `registry`'s tools. */
  constructor(registry: ToolRegistry, options: ExecutorOptions) {
    this.#registry = registry;
    this.#limits = options.limits;
    this.#graceMs = options.graceMs ?? answerGraceMs(options.limits.cancel_grace_ms);
    this.#slots = new Slots(options.limits.concurrent_calls);
    this.#approveCall = options.approveCall;
    this.#callHooks = options.callHooks;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#deadlines = new SharedDeadlines(this.#clock);
    const onToolFailure = options.onToolFailure ?? logFailure;
    this.#settle = new Settle({
      limits: options.limits,
      cwd: options.cwd,
      graceMs: this.#graceMs,
      envelopeBytes: options.envelopeBytes ?? defaultEnvelopeBytes(options.limits),
      failureDetail: options.failureDetail ?? "stack",
      onToolFailure,
      resultDefaults: options.resultDefaults,
      saveMedia: options.saveMedia ?? true,
      clock: this.#clock,
    });
    const { onLog, onProgress } = recording(options);
    const env = runnerEnv(options.cwd, this.#clock, this.#graceMs, onProgress);
    this.#process = new ProcessToolRunner(env, {
      denoPath: options.denoPath,
      kernelSandbox: options.kernelSandbox,
      processLimits: options.processLimits,
      concurrentCalls: options.limits.concurrent_calls,
      resultBytes: options.limits.result_bytes,
      onLog,
      onToolFailure,
    });
    this.#runners = {
      inline: new InlineRunner(env),
      process: this.#process,
      external: new ExternalRunner(env),
    };
  }

  /**
   * Start one warm process for every process-isolated tool now, so first
   * calls do not wait for `deno run` to start. Optional: processes otherwise
   * start on first use. Each costs a Deno process's memory.
   */
  async prewarm(): Promise<void> {
    await this.#process.prewarm(
      this.#registry.tools.filter((entry): entry is RegisteredToolOf<"process", AnyTool> =>
        entry.kind === "process"
      ),
    );
  }

  /**
   * Stop every tool process and wait until they exited. Calls still running
   * in a process end as `error`/`tool_crashed`. Call once, at shutdown.
   */
  async close(): Promise<void> {
    await this.#process.close();
  }

  /** Live process IDs of `name`'s tool processes (for diagnostics and tests). */
  processIds(name: string): Promise<number[]> {
    return this.#process.pids(name);
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
    const started = this.#clock.now();
    // Telemetry off: one boolean check, no span and no lookup (src/telemetry).
    const span = TELEMETRY ? startCallSpan(call, this.#registry.get(call.name)) : undefined;
    let answer: Answer;
    const hooks = this.#callHooks?.();
    try {
      const hooked = hooks === undefined ? undefined : hookedCall(call);
      answer = (hooked === undefined ? null : await beforeCallAnswer(hooks!, hooked)) ??
        await this.#answer(
          span === undefined ? call : { ...call, traceparent: span.traceparent },
          signal,
          started,
        );
      if (hooked !== undefined) {
        const rewritten = await afterCallAnswer(hooks!, hooked, answer);
        const bytes = rewritten === answer ? 0 : utf8ByteLength(rewritten.text);
        answer = bytes > this.#limits.result_bytes
          ? resultTooLarge(bytes, this.#limits.result_bytes)
          : rewritten;
      }
    } catch (error) {
      // Only a host bug gets here; still answer.
      console.error(errorText(error));
      answer = hostFailed();
    }
    const result = this.#settle.result(answer, started);
    if (span !== undefined) endCallSpan(span, call, result);
    return result;
  }

  /** Look up → check → approve → slot → deadline → the kind's runner → settle. */
  async #answer(call: ToolCallRequest, signal: AbortSignal, started: number): Promise<Answer> {
    const entry = this.#registry.get(call.name);
    if (entry === undefined || entry.toolId !== call.toolId) {
      return unknownTool(call.name, entry !== undefined);
    }
    // Each kind checks the arguments its way (a described process tool: in its process).
    const runner = this.#runners[entry.kind] as ToolRunner;
    const checked = runner.check(entry, call.arguments);
    if (!checked.success) return checked.answer;
    const ask = entry.definition.effect === "write" && this.#approveCall?.asks() === true
      ? this.#approveCall
      : undefined;
    if (ask !== undefined) {
      // Never put an invalid call to a person.
      if (!isJsonObject(call.arguments)) {
        return invalidArgumentsReason("arguments must be a JSON object");
      }
      const refused = runner.checkForPerson?.(entry, call.arguments) ?? null;
      if (refused !== null) return refused;
    }
    if (signal.aborted) return stopped({ kind: "cancel" }, null, this.#graceMs);
    const stop = new AbortController();
    // Timers overflow past 2^31-1 ms; a non-finite deadline falls back to the largest allowed.
    const backendDeadlineMs = Number.isFinite(call.deadlineMs)
      ? Math.min(Math.max(0, call.deadlineMs), MAX_TIMER_MS)
      : this.#limits.max_timeout_ms;
    // deadline_ms counts from the backend's emission, which was before `started`: stop the
    // tool a margin early so the timeout answer beats the backend's own deadline cancel.
    const deadlineMs = Math.round(backendDeadlineMs - deliveryMarginMs(backendDeadlineMs));
    const elapsed = this.#clock.now() - started;
    const control: RunControl = { call, stop, deadlineAt: Date.now() - elapsed + deadlineMs };
    const onCancel = () => stop.abort({ kind: "cancel" } satisfies Stop);
    signal.addEventListener("abort", onCancel, ONCE);
    // One shared timer serves every call's deadline (no timer created per call).
    const cancelDeadline = this.#deadlines.schedule(
      deadlineMs - elapsed,
      () => stop.abort({ kind: "deadline", ms: backendDeadlineMs } satisfies Stop),
    );
    try {
      if (ask !== undefined) {
        // The person has until the call's deadline (the approver may give less).
        const expiresInMs = Math.max(0, deadlineMs - (this.#clock.now() - started));
        const refused = await this.#approve(ask, entry.source, call, stop.signal, expiresInMs);
        if (refused !== null) return refused;
      }
      const acquired = await this.#slots.acquire(stop.signal);
      if (!acquired) return stopped(stop.signal.reason as Stop, null, this.#graceMs);
      try {
        const settled = await runner.run(entry, checked.data, control);
        return await this.#settle.answer(entry, settled, stop.signal, call.callId);
      } finally {
        this.#slots.release();
      }
    } finally {
      cancelDeadline();
      signal.removeEventListener("abort", onCancel);
    }
  }

  /** Put a write call to `ask`: the answer when it was refused or stopped meanwhile, else null. */
  async #approve(
    ask: CallApprover,
    source: ToolSourceInfo,
    call: ToolCallRequest,
    stop: AbortSignal,
    expiresInMs: number,
  ): Promise<Answer | null> {
    const args = call.arguments as Record<string, unknown>;
    const verdict = await ask.decide({
      callId: call.callId,
      runId: call.runId,
      name: call.name,
      arguments: args,
      view: argumentView(args),
      expiresInMs,
      source: sourceName(source),
    }, stop);
    if (stop.aborted) return stopped(stop.reason as Stop, null, this.#graceMs);
    if (!verdict.allow) return writeToolNotRun(call.name, verdict.why);
    return null;
  }
}
