/**
 * The tool executor: one `client.tool.call` in, one bounded result out.
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

import { requestFrame } from "../protocol/envelope.ts";
import { encodedFrameBytes } from "../protocol/framing.ts";
import { type ClientToolsLimits, ID_BYTES, INPUT_FRAME_BYTES } from "../protocol/limits.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import type { ToolContext } from "./define.ts";
import {
  type ExternalTool,
  type ExternalToolContext,
  ExternalToolError,
  type ToolProgress,
} from "./external.ts";
import { hostInputOf, type RegisteredTool, type ToolRegistry } from "./registry.ts";
import {
  resultToText,
  type SplitOptions,
  splitResultText,
  splitSizedResultText,
} from "./result.ts";
import { truncateText } from "./text.ts";
import {
  type Answer,
  externalFailed,
  hostFailed,
  invalidArguments,
  invalidArgumentsFrom,
  invalidArgumentsReason,
  invalidOutput,
  invalidOutputFrom,
  permissionDenied,
  resultNotText,
  resultTooLarge,
  resultTooManyParts,
  type Stop,
  stopped,
  toolCrashed,
  toolFailed,
  unknownTool,
  writeToolNotRun,
} from "./answers.ts";
import type { ToolCallRequest, ToolCallResult } from "./call.ts";
import type { ResultOverflow } from "./define.ts";
import { type CutResult, saveMedia, spillResult, truncateResult } from "./overflow.ts";
import {
  checkContent,
  type ContentPart,
  decodeBase64,
  isRichResult,
  partBytes,
  RICH_MARK,
} from "./content.ts";
import { Slots } from "./_slots.ts";
import { SharedDeadlines } from "./_deadlines.ts";
import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { denialLine } from "./sandbox/denial.ts";
import { argumentView, type CallApprover, schemaIssues } from "./call_approval.ts";
import { sourceName } from "./approval_rules.ts";
import {
  afterCallAnswer,
  beforeCallAnswer,
  type CallHooks,
  type HookedCall,
} from "./call_hooks.ts";

/** A call as the hooks see it. */
function hookedCall(call: ToolCallRequest): HookedCall {
  return { callId: call.callId, runId: call.runId, name: call.name, arguments: call.arguments };
}
import { LogBuffer, type ToolLog } from "./sandbox/log_buffer.ts";
import { ProgressLimiter, progressUpdate } from "./progress.ts";
import type { KernelSupport } from "./sandbox/kernel_policy.ts";
import type { IsolatedOutcome, ProcessRunner } from "./sandbox/process_runner.ts";
import type { ProcessLimits } from "./sandbox/containment.ts";
import { supportsProcessIsolation, terminalText } from "../runtime/mod.ts";
import { toolFrames } from "./tool_stack.ts";
import { TELEMETRY } from "../telemetry/mod.ts";
import { endCallSpan, startCallSpan } from "./call_telemetry.ts";

export type { ToolLog } from "./sandbox/log_buffer.ts";
export type { ToolCallOutcome, ToolCallRequest, ToolCallResult } from "./call.ts";

/** Options of {@link ToolExecutor}. */
export interface ExecutorOptions {
  /** The descriptor's limits (never copied numbers). */
  limits: ClientToolsLimits;
  /** Working directory handed to tools as `ctx.cwd`. */
  cwd: string;
  /**
   * How long a signalled tool may take to settle; default
   * {@link answerGraceMs}`(limits.cancel_grace_ms)`, so the answer reaches the
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
   */
  onLog?: (log: ToolLog) => void;
  /**
   * Receives the host's report of a call that failed because the tool threw
   * (or an external tool's source failed) or its process crashed: one line
   * naming the tool, file and error, and the tool's own stack frames (the
   * host's runner frames cut off). Default: both written to stderr.
   */
  onToolFailure?: (failure: ToolFailure) => void;
  /** The `deno` executable for tool processes; default `Deno.execPath()`. */
  denoPath?: string;
  /**
   * Receives each progress update of a call (a module tool's `ctx.progress`, an MCP server's
   * `notifications/progress`), with the call's ID and the tool's name, bounded per call
   * (`progress.ts`: unchanged updates dropped, 10 at once, then 10 a second; the newest held
   * one before `execute` resolves). Nothing after the call was stopped.
   */
  onProgress?: (callId: string, name: string, progress: ToolProgress) => void;
  /**
   * The kernel layer under process-isolated tools (Landlock, Linux): `"auto"` (default)
   * probes the kernel on first use; `"off"` runs them with Deno's permission checks only;
   * or the caller's own {@link KernelSupport} (probed once at startup).
   */
  kernelSandbox?: "auto" | "off" | KernelSupport | Promise<KernelSupport>;
  /**
   * Asks before a `write` tool runs (`call_approval.ts`): when it `asks()`, after the
   * arguments were validated (a process tool's against its `input_schema` in the host) and
   * before the call takes a slot, with a signal that fires on the call's cancel or deadline. A
   * refusal is answered `approval_denied`; absent (or not asking), write tools run without
   * asking (the backend's approval was the gate).
   */
  approveCall?: CallApprover;
  /**
   * The current hooks around each call (`call_hooks.ts`): `beforeCall` may refuse a call before
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
   * a signalled inline tool) and of `durationMs`; default {@link REAL_CLOCK}. Tool processes
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

const MAX_TIMER_MS = 2_147_483_647;

/** The most the host keeps back from the backend's bounds for the answer's way back, ms. */
export const DELIVERY_MARGIN_MS = 500;

/**
 * The part of a backend bound (`cancel_grace_ms`, `deadline_ms`) kept back
 * for delivering the answer: half of it, at most {@link DELIVERY_MARGIN_MS}.
 */
export function deliveryMarginMs(boundMs: number): number {
  return Math.min(Math.max(0, boundMs) / 2, DELIVERY_MARGIN_MS);
}

/**
 * The grace a signalled tool gets: `cancel_grace_ms` minus the delivery
 * margin. The backend counts its grace from emitting `client.tool.cancel`;
 * the host's starts later and the answer still has to travel, so an
 * abandoned or killed tool's `cancelled` answer arrives within the backend's
 * grace instead of just after it finalized the call.
 */
export function answerGraceMs(cancelGraceMs: number): number {
  return Math.max(0, cancelGraceMs - deliveryMarginMs(cancelGraceMs));
}

type Settled =
  | { readonly kind: "value"; readonly value: unknown }
  | { readonly kind: "thrown"; readonly error: unknown }
  | { readonly kind: "abandoned" }
  | { readonly kind: "killed" }
  | { readonly kind: "answer"; readonly answer: Answer };

/** Runs registered tools for `client.tool.call` events, within the descriptor's limits. */
/** What {@link ExecutorOptions.onToolFailure} receives. */
export interface ToolFailure {
  /** `Tool NAME (FILE) failed: Error: message` (or `… crashed: …`). */
  readonly line: string;
  /** The tool's own stack frames (`at fn (file:///…:4:9)`), innermost first; may be empty. */
  readonly frames: readonly string[];
}

function logFailure(failure: ToolFailure): void {
  console.error(
    terminalText([failure.line, ...failure.frames.map((frame) => `    ${frame}`)].join("\n")),
  );
}

export class ToolExecutor {
  readonly #registry: ToolRegistry;
  readonly #limits: ClientToolsLimits;
  readonly #cwd: string;
  readonly #graceMs: number;
  readonly #envelopeBytes: number;
  readonly #slots: Slots;
  readonly #clock: Clock;
  readonly #deadlines: SharedDeadlines;
  readonly #onLog: ((log: ToolLog) => void) | undefined;
  readonly #onToolFailure: (failure: ToolFailure) => void;
  readonly #denoPath: string | undefined;
  readonly #onProgress: ExecutorOptions["onProgress"];
  readonly #kernelSandbox: ExecutorOptions["kernelSandbox"];
  readonly #failureDetail: "stack" | "line";
  readonly #processLimits: ProcessLimits | undefined;
  readonly #approveCall: CallApprover | undefined;
  readonly #callHooks: (() => CallHooks | undefined) | undefined;
  readonly #resultDefaults: ExecutorOptions["resultDefaults"];
  readonly #saveMedia: boolean;
  #runner: Promise<ProcessRunner | null> | undefined;
  #closed = false;

  /** An executor for `registry`'s tools. */
  constructor(registry: ToolRegistry, options: ExecutorOptions) {
    this.#registry = registry;
    this.#limits = options.limits;
    this.#cwd = options.cwd;
    this.#graceMs = options.graceMs ?? answerGraceMs(options.limits.cancel_grace_ms);
    this.#envelopeBytes = options.envelopeBytes ?? defaultEnvelopeBytes(options.limits);
    this.#slots = new Slots(options.limits.concurrent_calls);
    this.#onLog = options.onLog;
    this.#onToolFailure = options.onToolFailure ?? logFailure;
    this.#denoPath = options.denoPath;
    this.#onProgress = options.onProgress;
    this.#kernelSandbox = options.kernelSandbox;
    this.#failureDetail = options.failureDetail ?? "stack";
    this.#processLimits = options.processLimits;
    this.#approveCall = options.approveCall;
    this.#callHooks = options.callHooks;
    this.#resultDefaults = options.resultDefaults;
    this.#saveMedia = options.saveMedia ?? true;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#deadlines = new SharedDeadlines(this.#clock);
  }

  /**
   * Start one warm process for every process-isolated tool now, so first
   * calls do not wait for `deno run` to start. Optional: processes otherwise
   * start on first use. Each costs a Deno process's memory.
   */
  async prewarm(): Promise<void> {
    const isolated = this.#registry.tools.filter((entry) => entry.kind === "process");
    if (isolated.length === 0) return;
    const runner = await this.#processRunner();
    await Promise.all(isolated.map((entry) => runner?.prewarm(entry.tool, entry.file)));
  }

  /**
   * Stop every tool process and wait until they exited. Calls still running
   * in a process end as `error`/`tool_crashed`. Call once, at shutdown.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const runner = await this.#runner;
    await runner?.close();
  }

  /** Live process IDs of `name`'s tool processes (for diagnostics and tests). */
  async processIds(name: string): Promise<number[]> {
    const runner = this.#runner === undefined ? null : await this.#runner;
    return runner?.pids(name) ?? [];
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
    const result = this.#finish(answer, started);
    if (span !== undefined) endCallSpan(span, call, result);
    return result;
  }

  async #answer(call: ToolCallRequest, signal: AbortSignal, started: number): Promise<Answer> {
    const entry = this.#registry.get(call.name);
    if (entry === undefined || entry.toolId !== call.toolId) {
      return unknownTool(call.name, entry !== undefined);
    }
    // A described (process) tool has no schema in the host: its process validates the
    // arguments and answers invalid_arguments the same way.
    const input = hostInputOf(entry);
    const parsed = input?.safeParse(call.arguments) ??
      { success: true as const, data: undefined };
    if (!parsed.success) return invalidArguments(parsed.error.issues);
    if (entry.kind === "external") {
      const reason = externalInvalid(entry.tool, call.arguments);
      if (reason !== null) return invalidArgumentsReason(reason);
    }
    const ask = entry.definition.effect === "write" && this.#approveCall?.asks() === true
      ? this.#approveCall
      : undefined;
    if (ask !== undefined && !isJsonObject(call.arguments)) {
      return invalidArgumentsReason("arguments must be a JSON object");
    }
    if (ask !== undefined && input === undefined && entry.kind === "process") {
      // Never put an invalid call to a person: check it here, as its process would.
      const issues = schemaIssues(entry.definition.input_schema, call.arguments);
      if (issues !== null) return invalidArguments(issues);
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
    const deadlineAt = Date.now() - (this.#clock.now() - started) + deadlineMs;
    const onCancel = () => stop.abort({ kind: "cancel" } satisfies Stop);
    signal.addEventListener("abort", onCancel, { once: true });
    // One shared timer serves every call's deadline (no timer created per call).
    const cancelDeadline = this.#deadlines.schedule(
      deadlineMs - (this.#clock.now() - started),
      () => stop.abort({ kind: "deadline", ms: backendDeadlineMs } satisfies Stop),
    );
    try {
      if (ask !== undefined) {
        const args = call.arguments as Record<string, unknown>;
        const verdict = await ask.decide({
          callId: call.callId,
          runId: call.runId,
          name: call.name,
          arguments: args,
          view: argumentView(args),
          // The person has until the call's deadline (the approver may give less).
          expiresInMs: Math.max(0, deadlineMs - (this.#clock.now() - started)),
          source: sourceName(entry.source),
        }, stop.signal);
        if (stop.signal.aborted) return stopped(stop.signal.reason as Stop, null, this.#graceMs);
        if (!verdict.allow) return writeToolNotRun(call.name, verdict.why);
      }
      const acquired = await this.#slots.acquire(stop.signal);
      if (!acquired) return stopped(stop.signal.reason as Stop, null, this.#graceMs);
      let released = false;
      const release = () => {
        if (!released) this.#slots.release();
        released = true;
      };
      try {
        // External tools run in the host (their work happens in the source). Without a
        // process sandbox (Node.js) every tool runs inline.
        const settled = entry.kind === "external"
          ? await this.#run(entry.tool, call.arguments as Record<string, unknown>, call, {
            stop,
            deadlineAt,
          }, true)
          : entry.kind === "inline"
          ? await this.#run(entry.tool, parsed.data ?? {}, call, { stop, deadlineAt }, false)
          : await this.#runIsolated(entry, call, { stop, deadlineAt });
        // A grace timer only starts once the signal fired, so "abandoned"/"killed" imply aborted.
        if (stop.signal.aborted || settled.kind === "abandoned" || settled.kind === "killed") {
          const reason = (stop.signal.reason ?? { kind: "cancel" }) as Stop;
          const how = settled.kind === "abandoned" || settled.kind === "killed"
            ? settled.kind
            : null;
          return stopped(reason, how, this.#graceMs);
        }
        if (settled.kind === "answer") return settled.answer;
        if (settled.kind === "thrown") {
          return failed(entry, settled.error, this.#failureDetail, this.#onToolFailure);
        }
        // An inline tool's result is checked here (a process tool's in its process).
        if (entry.kind === "inline" && entry.tool.output !== undefined) {
          const checked = entry.tool.output.safeParse(settled.value);
          if (!checked.success) return invalidOutput(checked.error.issues);
          return await this.#success(checked.data, entry, call.callId);
        }
        return await this.#success(settled.value, entry, call.callId);
      } finally {
        release();
      }
    } finally {
      cancelDeadline();
      signal.removeEventListener("abort", onCancel);
    }
  }

  async #run(
    tool: InlineRunnable,
    args: Record<string, unknown>,
    call: ToolCallRequest,
    control: { stop: AbortController; deadlineAt: number },
    external: boolean,
  ): Promise<Settled> {
    const { stop } = control;
    const { timeoutTimer, deadline } = armToolTimeout(tool.timeoutMs, control, this.#clock);
    const limiter = this.#progressLimiter(call, tool.name, stop.signal);
    const base = {
      signal: stop.signal,
      callId: call.callId,
      sessionId: call.sessionId,
      runId: call.runId,
      deadline,
      cwd: this.#cwd,
      attempt: call.attempt ?? 1,
      ...(call.traceparent === undefined ? {} : { traceparent: call.traceparent }),
    };
    // A module tool reports `ctx.progress(done, total?, message?)`; a source an update object.
    const ctx: ToolContext | ExternalToolContext = Object.freeze(
      external ? { ...base, progress: (update: ToolProgress) => limiter.push(update) } : {
        ...base,
        progress: (done: number, total?: number, message?: string) =>
          limiter.push(progressUpdate(done, total, message)),
      },
    );
    let graceTimer: TimerId | undefined;
    let onStop: (() => void) | undefined;
    try {
      return await new Promise<Settled>((resolve) => {
        onStop = () => {
          graceTimer = this.#clock.setTimeout(
            () => resolve({ kind: "abandoned" }),
            this.#graceMs,
          );
        };
        // Inside the executor so a synchronous throw becomes a rejection.
        new Promise<unknown>((settle) => settle(tool.run(args, ctx))).then(
          (value) => resolve({ kind: "value", value }),
          (error: unknown) => resolve({ kind: "thrown", error }),
        );
        if (stop.signal.aborted) onStop();
        else stop.signal.addEventListener("abort", onStop, { once: true });
      });
    } finally {
      this.#clock.clearTimeout(timeoutTimer);
      this.#clock.clearTimeout(graceTimer);
      if (onStop !== undefined) stop.signal.removeEventListener("abort", onStop);
      limiter.close();
    }
  }

  /** The bounded progress reporter of one call (`progress.ts`); silent once `signal` fired. */
  #progressLimiter(call: ToolCallRequest, name: string, signal: AbortSignal): ProgressLimiter {
    const onProgress = this.#onProgress;
    return new ProgressLimiter((update) => {
      if (signal.aborted || onProgress === undefined) return;
      try {
        onProgress(call.callId, name, update);
      } catch (error) {
        console.error(`Tool progress callback failed: ${errorText(error)}`);
      }
    }, this.#clock);
  }

  #processRunner(): Promise<ProcessRunner | null> {
    if (this.#runner === undefined) {
      const cwd = this.#cwd;
      const denoPath = this.#denoPath;
      const kernelSandbox = this.#kernelSandbox;
      const processLimits = this.#processLimits;
      const concurrent = this.#limits.concurrent_calls;
      // Deno only, and loaded only when a process-isolated tool is used.
      this.#runner = !supportsProcessIsolation()
        ? Promise.resolve(null)
        : import("./sandbox/process_runner.ts").then(({ ProcessRunner }) =>
          new ProcessRunner({
            cwd,
            ...(denoPath === undefined ? {} : { denoPath }),
            ...(kernelSandbox === undefined ? {} : { kernelSandbox }),
            announceKernel: true,
            ...(processLimits === undefined ? {} : { processLimits }),
            // Calls of one tool may overlap up to concurrent_calls: keep that many warm.
            maxIdle: concurrent,
          })
        );
    }
    return this.#runner;
  }

  async #runIsolated(
    entry: RegisteredTool,
    call: ToolCallRequest,
    control: { stop: AbortController; deadlineAt: number },
  ): Promise<Settled> {
    const runner = this.#closed ? null : await this.#processRunner();
    if (runner === null) {
      const why = this.#closed
        ? "the tool host is shutting down"
        : "this runtime has no process sandbox";
      return { kind: "answer", answer: toolCrashed(why) };
    }
    const { stop } = control;
    const { timeoutTimer, deadline } = armToolTimeout(entry.tool.timeoutMs, control, this.#clock);
    const log = new LogBuffer(undefined, {
      deliver: (piece) => this.#deliverLog(piece),
      callId: call.callId,
      name: entry.tool.name,
      clock: this.#clock,
    });
    const limiter = this.#progressLimiter(call, entry.tool.name, stop.signal);
    let outcome: IsolatedOutcome;
    try {
      outcome = await runner.run({
        tool: entry.tool,
        file: entry.file,
        message: {
          args: call.arguments,
          callId: call.callId,
          sessionId: call.sessionId,
          runId: call.runId,
          deadline,
          cwd: this.#cwd,
          attempt: call.attempt ?? 1,
          resultBytes: this.#limits.result_bytes,
          ...(call.traceparent === undefined ? {} : { traceparent: call.traceparent }),
        },
        signal: stop.signal,
        graceMs: this.#graceMs,
        log,
        progress: (update) => limiter.push(update),
      });
    } finally {
      this.#clock.clearTimeout(timeoutTimer);
      limiter.close();
    }
    log.finish();
    if (outcome.kind === "crashed" && outcome.interrupted === true && stop.signal.aborted) {
      // A Ctrl-C killed the process and the call's stop followed (the runner waited for it):
      // the caller answers `cancelled`; this is not reported as a crash.
      return { kind: "answer", answer: toolCrashed(outcome.message) };
    }
    return settledOf(entry, outcome, this.#limits.result_bytes, this.#onToolFailure);
  }

  #deliverLog(log: ToolLog): void {
    try {
      this.#onLog?.(log);
    } catch (error) {
      console.error(`Tool log callback failed: ${errorText(error)}`);
    }
  }

  async #success(value: unknown, entry: RegisteredTool, callId: string): Promise<Answer> {
    if (isRichResult(value)) return await this.#richSuccess(value.content, entry, callId);
    let text: string;
    try {
      text = resultToText(value);
    } catch (error) {
      return resultNotText((error as Error).message);
    }
    const limit = this.#limits.result_bytes;
    // UTF-8 never has fewer bytes than UTF-16 units: a text longer than the limit in units is
    // too large without splitting it; otherwise one pass splits and sizes it.
    if (text.length > limit) return resultTooLarge(utf8ByteLength(text), limit);
    let split = splitSizedResultText(text, this.#splitOptions());
    if (split.bytes > limit) return resultTooLarge(split.bytes, limit);
    // The tool's own bound, within the protocol's.
    const { maxBytes, overflow } = this.#boundsOf(entry);
    let cut: CutResult | undefined;
    if (split.bytes > maxBytes) {
      if (overflow === "error") return resultTooLarge(split.bytes, maxBytes);
      try {
        cut = overflow === "truncate"
          ? truncateResult(text, maxBytes)
          : await spillResult(text, maxBytes, { cwd: this.#cwd, callId });
      } catch (error) {
        return resultNotText(
          `Result too large: ${split.bytes} bytes exceeds the limit of ${maxBytes} bytes, and writing it to a file failed: ${
            errorText(error)
          }`,
        );
      }
      text = cut.text;
      split = splitSizedResultText(text, this.#splitOptions());
    }
    const parts = split.parts.length;
    if (parts > this.#limits.result_parts) {
      return resultTooManyParts(split.bytes, parts, this.#limits.result_parts);
    }
    return {
      outcome: "success",
      text,
      split,
      ...(cut === undefined ? {} : {
        overflow: {
          policy: overflow as "truncate" | "spill",
          bytes: cut.bytes,
          kept: cut.kept,
          ...(cut.file === undefined ? {} : { file: cut.file }),
        },
      }),
    };
  }

  /**
   * A rich result (`content(...)`): its parts checked and bounded (decoded bytes, all parts
   * together, within the tool's bound), and its text for the `client.tools` path: each image or
   * audio part saved to a file (unless `saveMedia` is off) and named in a line.
   */
  async #richSuccess(given: unknown, entry: RegisteredTool, callId: string): Promise<Answer> {
    const parts = checkContent(given);
    if (typeof parts === "string") return resultNotText(parts);
    const { maxBytes } = this.#boundsOf(entry);
    const total = parts.reduce((sum, part) => sum + partBytes(part), 0);
    if (total > maxBytes) return resultTooLarge(total, maxBytes);
    const lines: string[] = [];
    try {
      for (const part of parts) lines.push(await this.#partText(part, callId));
    } catch (error) {
      return resultNotText(`Saving the result's media to a file failed: ${errorText(error)}`);
    }
    const text = lines.join("\n\n");
    const split = splitSizedResultText(text, this.#splitOptions());
    if (split.parts.length > this.#limits.result_parts) {
      return resultTooManyParts(split.bytes, split.parts.length, this.#limits.result_parts);
    }
    return { outcome: "success", text, split, content: parts };
  }

  async #partText(part: ContentPart, callId: string): Promise<string> {
    switch (part.type) {
      case "text":
        return part.text;
      case "resource_link":
        return `[resource link: ${part.name} ${part.uri}]`;
      case "image":
      case "audio": {
        const about = `${part.type}: ${part.mimeType}, ${partBytes(part)} bytes`;
        if (!this.#saveMedia) return `[${about}]`;
        const file = await saveMedia(decodeBase64(part.data), part.mimeType, {
          cwd: this.#cwd,
          callId,
        });
        return `[${about}, saved to the file ${file}]`;
      }
    }
  }

  /** A tool's result bound (at most `result_bytes`) and overflow policy. */
  #boundsOf(entry: RegisteredTool): { maxBytes: number; overflow: ResultOverflow } {
    const own = entry.tool as { maxResultBytes?: number; overflow?: ResultOverflow };
    // The registry converted a module tool's `output` (or took its description's): typed.
    const typed = entry.outputSchema !== undefined;
    const defaults = this.#resultDefaults;
    const maxBytes = Math.min(
      own.maxResultBytes ?? defaults?.maxResultBytes ?? this.#limits.result_bytes,
      this.#limits.result_bytes,
    );
    const overflow = typed ? "error" : own.overflow ?? defaults?.overflow ?? "error";
    return { maxBytes, overflow };
  }

  #split(text: string): string[] {
    return splitResultText(text, this.#splitOptions());
  }

  #splitOptions(): SplitOptions {
    return {
      partBytes: this.#limits.result_part_bytes,
      frameBytes: INPUT_FRAME_BYTES,
      envelopeBytes: this.#envelopeBytes,
    };
  }

  #finish(answer: Answer, started: number): ToolCallResult {
    const result: ToolCallResult = {
      outcome: answer.outcome,
      text: answer.text,
      parts: Object.freeze(answer.split?.parts ?? this.#split(answer.text)),
      bytes: answer.split?.bytes ?? utf8ByteLength(answer.text),
      durationMs: Math.round(this.#clock.now() - started),
      abandoned: answer.abandoned ?? false,
      killed: answer.killed ?? false,
      ...(answer.overflow === undefined ? {} : { overflow: answer.overflow }),
      ...(answer.content === undefined ? {} : { content: answer.content }),
      ...(answer.errorCode === undefined ? {} : { errorCode: answer.errorCode }),
    };
    return Object.freeze(result);
  }
}

/** An isolated call's outcome as the executor's {@link Settled}. */
function settledOf(
  entry: RegisteredTool,
  outcome: IsolatedOutcome,
  resultBytes: number,
  report: (failure: ToolFailure) => void,
): Settled {
  const tool = entry.tool;
  switch (outcome.kind) {
    case "killed":
      return outcome;
    case "value":
      return { kind: "value", value: outcome.text };
    case "content":
      // Checked with the parts' bounds in `#success`, as an inline tool's.
      return { kind: "value", value: { [RICH_MARK]: true, content: outcome.parts } };
    case "too_large":
      return { kind: "answer", answer: resultTooLarge(outcome.bytes, resultBytes) };
    case "invalid":
      return { kind: "answer", answer: invalidArgumentsFrom(outcome.text) };
    case "invalid_output":
      return { kind: "answer", answer: invalidOutputFrom(outcome.text) };
    case "thrown":
    case "crashed":
      if (outcome.permission !== undefined) {
        // stderr names what was denied and the fix; the model sees the kind only.
        console.error(terminalText(
          denialLine(
            { name: tool.name, file: entry.file, permission: outcome.permission },
            outcome.message,
          ),
        ));
        return { kind: "answer", answer: permissionDenied(outcome.permission) };
      }
      if (outcome.kind === "crashed") {
        report({
          line: `Tool ${tool.name} (${entry.file}) crashed: ${outcome.message}`,
          frames: [],
        });
        return {
          kind: "answer",
          answer: toolCrashed(`${outcome.message}; it restarts for the next call`),
        };
      }
      return { kind: "thrown", error: remoteError(outcome.message, outcome.stack) };
  }
}

function remoteError(message: string, stack: string | undefined): Error {
  const error = new Error(message);
  error.stack = stack ?? message;
  return error;
}

/** What {@link ToolExecutor} runs in the host: a tool module's or an external tool's `run`. */
interface InlineRunnable {
  readonly name: string;
  readonly timeoutMs?: number | undefined;
  // deno-lint-ignore no-explicit-any -- a module tool's or a source's context (see #run)
  run(args: Record<string, unknown>, ctx: any): unknown;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The source's verdict on `args` (an object is required first); a throwing validator is a reason. */
function externalInvalid(tool: ExternalTool, args: unknown): string | null {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "arguments must be a JSON object";
  }
  try {
    return tool.validate(args);
  } catch (error) {
    return `cannot be checked: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function failed(
  entry: RegisteredTool,
  error: unknown,
  detail: "stack" | "line",
  report: (failure: ToolFailure) => void,
): Answer {
  const tool = `Tool ${entry.tool.name} (${entry.file}) failed`;
  if (error instanceof ExternalToolError) {
    report({ line: `${tool}: ${error.code}`, frames: [] });
    return externalFailed(error.code, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  if (detail === "line") {
    const line = truncateText(message.replace(/\s+/g, " ").trim(), 512);
    report({ line: `${tool}: ${line}`, frames: [] });
    return toolFailed(message);
  }
  const firstLine = message.split("\n", 1)[0] ?? "";
  // A process tool's error arrives as message and stack: the stack's head keeps its own name.
  const head = error instanceof Error ? error.stack?.split("\n", 1)[0] : undefined;
  report({
    line: head !== undefined && head.endsWith(firstLine)
      ? `${tool}: ${head}`
      : error instanceof Error
      ? `${tool}: ${error.name}: ${firstLine}`
      : `${tool}: ${firstLine}`,
    frames: error instanceof Error ? toolFrames(error.stack ?? "") : [],
  });
  return toolFailed(message);
}

/**
 * An error (a tool's, so its message is the tool's text) as one stderr text: its stack or
 * message, control characters shown visibly.
 */
function errorText(error: unknown): string {
  return terminalText(error instanceof Error ? (error.stack ?? error.message) : String(error));
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

/**
 * Arm the tool's own `timeoutMs` (aborting `control.stop` with a timeout stop)
 * and compute the call's effective deadline: the earlier of the backend's
 * deadline and the tool's timeout. The caller clears `timeoutTimer` on the same `clock`.
 */
function armToolTimeout(
  timeoutMs: number | undefined,
  control: { stop: AbortController; deadlineAt: number },
  clock: Clock,
): { timeoutTimer: TimerId | undefined; deadline: number } {
  if (timeoutMs === undefined) return { timeoutTimer: undefined, deadline: control.deadlineAt };
  const timeoutTimer = clock.setTimeout(
    () => control.stop.abort({ kind: "timeout", ms: timeoutMs } satisfies Stop),
    timeoutMs,
  );
  return { timeoutTimer, deadline: Math.min(control.deadlineAt, Date.now() + timeoutMs) };
}
