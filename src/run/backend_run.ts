/**
 * `run`: backend spawned while tools load → registry → initialize → descriptor check → session
 * → one turn → shutdown → reaped child → exit code. A tool load failure stops the unused backend
 * (EOF, then signals).
 *
 * The phases are the methods of {@link BackendRun}, one backend connection (start, initialize,
 * turn, failure, stop); {@link runBackend} runs them once in a turn scope (`turn_scope.ts`), a `batch`
 * slot runs many turns on one connection in the same scope. Parts: `run_start.ts` (the start),
 * `tool_wiring.ts` (executor, call session, records), `backend_turn.ts`, `exit_policy.ts` (exit code).
 *
 * @module
 */

import { type Clock, REAL_CLOCK } from "../async/clock.ts";
import { settleWithin, waitWithin } from "../async/deadline.ts";
import { LocalAgentClient } from "../client/client.ts";
import { BackendExited, ClientClosed, type RequestBudgetExhausted } from "../client/errors.ts";
import type { AgentEvent } from "../client/events.ts";
import type { ToolExecutor } from "../call/executor.ts";
import { signInRequiredError } from "../tool/external.ts";
import type { ToolCallSession } from "../call/client_tools.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type { ClientToolsDescriptor, InitializeResult } from "../protocol/schemas/mod.ts";
import { type ChildHandle, onInterrupt } from "../runtime/mod.ts";
import type { HostReadyRecord } from "../summary/records.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { StartedSources } from "../sources/start.ts";
import type { AgentCommand } from "./agent.ts";
import { exitCode as exitCodeOf } from "./exit_codes.ts";
import { invocationExit } from "./exit_policy.ts";
import { classify, hostErrorRecord, isEngineFailure, timedOutBeforeTurn } from "./failure.ts";
import type { HostFailure } from "./failure.ts";
import { HostError, isReported, type Reported } from "../errors/mod.ts";
import type { BackendRunOptions, BackendStartOptions, BackendTurnOptions } from "./run_options.ts";
import {
  checkInitialized,
  type ConnectionParts,
  readyRecord,
  startConnection,
} from "./run_start.ts";
import { backendTurn } from "./backend_turn.ts";
import { LivenessProbe } from "./liveness.ts";
import { REQUIRED_CAPABILITIES } from "./load_registry.ts";
import { closeBackend } from "./shutdown.ts";
import type { SourceWarnings } from "./sources.ts";
import { StopState } from "./stop.ts";
import { startTools, wireTools } from "./tool_wiring.ts";
import { runTurnScope } from "./turn_scope.ts";
import type { ArgumentsRecorder } from "./record_args.ts";

export type { BackendRunOptions, BackendStartOptions, BackendTurnOptions } from "./run_options.ts";
export { loadRegistry, type LoadRegistryOptions, REQUIRED_CAPABILITIES } from "./load_registry.ts";

/** Run one turn against a spawned backend; returns the exit code. Never throws for backend faults. */
export async function runBackend(options: BackendRunOptions): Promise<number> {
  const { writer } = options;
  const host = await BackendRun.start(options);
  if (isReported(host)) return exitCodeOf(host.code);
  const interrupt = () => host.interrupt();
  const removeInterrupt = onInterrupt(interrupt);
  options.signal?.addEventListener("abort", interrupt, { once: true });
  if (options.signal?.aborted) interrupt();
  let exitCode: number;
  try {
    // The timeout covers initialize and the turn; a second SIGINT still cuts the stop short.
    exitCode = await runTurnScope(host, {
      turn: options,
      initialize: true,
      timeoutMs: options.timeoutMs,
      startupTimeoutMs: options.startTimeoutMs,
      timeoutCoversStart: true,
      failOnToolError: options.failOnToolError === true,
    });
  } finally {
    removeInterrupt();
    options.signal?.removeEventListener("abort", interrupt);
  }
  await writer.flush();
  // Summaries lost: never report success (the turn was cancelled when stdout failed).
  return invocationExit(exitCode, writer.failed);
}

/**
 * One backend connection of the host, in phases: {@link BackendRun.start} (registry, spawned
 * backend), {@link BackendRun.initialize} (handshake, descriptor check, executor, `host.ready`),
 * {@link BackendRun.turn} (a session and one turn; `run` does one, a batch slot many) and
 * {@link BackendRun.stop} (shutdown, tool processes stopped, child reaped). {@link BackendRun.failure}
 * turns a failed phase into its `host.error`; then the connection is not {@link BackendRun.healthy}
 * and only `stop` is left. Each turn has its own stop state, made by {@link BackendRun.turn}
 * (initialize and the first turn share the first one); stop requests go through
 * {@link BackendRun.interrupt}, {@link BackendRun.timeout} and {@link BackendRun.watchOutput}.
 */
export class BackendRun {
  #stop: StopState = new StopState(); // The current turn's.
  /** turn() calls so far; a turn in progress; a SIGINT that came after the last turn ended. */
  #turns = 0;
  #turning = false;
  #interruptNext = false;
  readonly #agent: AgentCommand;
  readonly #cwd: string;
  readonly #stallMs: number;
  /** The connection's clock and timers (busy retry, watchdog, liveness probe). */
  readonly #clock: Clock;
  readonly #parts: ConnectionParts;
  readonly #argumentsPreview: boolean;
  readonly #recordArguments: ArgumentsRecorder | undefined;
  /** Turns admitted on this connection (a batch slot runs many). */
  #turnsStarted = 0;
  /** The config's tool sources (MCP servers, OpenAPI documents); closed by {@link BackendRun.stop}. */
  readonly #sources: StartedSources;
  readonly #sourceWarnings: SourceWarnings | undefined;
  readonly #child: ChildHandle;
  readonly #client: LocalAgentClient;
  readonly #events: AsyncIterator<AgentEvent>;
  /** Where the connection's records (tool calls, logs) go: the current turn's writer. */
  #writer: SummaryWriter;
  #approvals: BackendTurnOptions["approvals"] | null = null; // The turn's: asked at write calls.
  #liveness: LivenessProbe | null = null;
  #stalled = false;
  #calls: ToolCallSession | null = null;
  #executor: ToolExecutor | null = null;
  #unsubscribe = () => {};
  /** host.ready was emitted: a stop before the turn still ends stdout with a record. */
  #started = false;
  #failed = false;
  #stopped = false;
  #budgetError: RequestBudgetExhausted | null = null;
  #sourceFailure: HostError<"sign_in_required"> | null = null; // A source failed for good.
  #init: InitializeResult | null = null;
  #descriptor: ClientToolsDescriptor | null = null;
  #ready: Omit<HostReadyRecord, "ts" | "v"> | null = null;
  /** The start deadline that expired before `initialize` was answered, ms. */
  #startDeadlineMs: number | null = null;

  private constructor(options: BackendStartOptions, parts: ConnectionParts) {
    this.#parts = parts;
    this.#argumentsPreview = options.argumentsPreview === true;
    this.#recordArguments = options.recordArguments;
    this.#sources = parts.sources;
    this.#sourceWarnings = options.sourceWarnings;
    this.#agent = options.agent;
    this.#cwd = options.cwd;
    this.#stallMs = options.stallTimeoutMs ?? 0;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#child = parts.child;
    this.#writer = options.writer;
    const child = parts.child;
    const { stdin, stdout, exited, stdinUnflushed } = child;
    const onActivity = () => this.#liveness?.activity();
    // With a stall timeout every chunk from the backend counts as a sign of life.
    this.#client = new LocalAgentClient(
      this.#stallMs > 0
        ? { stdin, stdout, exited, onActivity, ...(stdinUnflushed && { stdinUnflushed }) }
        : child,
    );
    this.#events = this.#client.events()[Symbol.asyncIterator]();
  }

  /**
   * Phase 1: spawn the backend (unless `options.backend` gives one: a started process, or
   * any {@link ChildHandle}, e.g. in-memory streams to an in-process backend) while the tools
   * load. Resolves with the connection, or with the failure already reported: the tools fail
   * to load (on stderr; `tool_load`, `registry`, `kernel_required`, or the sources' `config`,
   * `source_start`, `feature_unavailable`) or the backend cannot be spawned
   * (`backend_unavailable`, `host.error` on the writer). `exitCode(reported.code)` is the
   * exit code.
   */
  static async start(options: BackendStartOptions): Promise<BackendRun | Reported> {
    const parts = await startConnection(options);
    return isReported(parts) ? parts : new BackendRun(options, parts);
  }

  /** Whether more turns can run on this connection (no failure, no hard stop). */
  get healthy(): boolean {
    return !this.#failed && !this.#stop.hard.signal.aborted && this.#client.failure === null &&
      this.#budgetError === null && this.#sourceFailure === null;
  }

  /** Whether {@link BackendRun.stop} was called (nothing more can run). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /**
   * SIGINT: soft-stop the current turn (cancel), or hard-stop it when repeated. Between two
   * turns the next turn's stop state starts interrupted too.
   */
  interrupt(): void {
    this.#stop.interrupt();
    if (this.#turns > 0 && !this.#turning) this.#interruptNext = true;
  }

  /** The current phase's deadline expired: soft-stop it; `startMs`: the start deadline's. */
  timeout(startMs?: number): void {
    if (this.#init === null && this.#stop.cause === null) this.#startDeadlineMs = startMs ?? null;
    this.#stop.timeout();
  }

  /** Soft-stop the current turn when `writer` fails; returns the remover. */
  watchOutput(writer: SummaryWriter): () => void {
    const onOutputFailed = () => this.#stop.outputFailed();
    writer.failure.addEventListener("abort", onOutputFailed, { once: true });
    return () => writer.failure.removeEventListener("abort", onOutputFailed);
  }

  /**
   * Phase 2: `initialize`, the descriptor check, the executor and the call session;
   * emits `host.ready` on `writer`. Resolves with null when ready, or with an exit code
   * when stopped first; throws on a failure (see {@link BackendRun.failure}).
   */
  async initialize(writer: SummaryWriter): Promise<number | null> {
    this.#writer = writer;
    const client = this.#client;
    const { registry } = this.#parts;
    const startup = AbortSignal.any([this.#stop.soft.signal, this.#stop.hard.signal]);
    let init: InitializeResult;
    try {
      init = await client.initialize({
        required_capabilities: [...REQUIRED_CAPABILITIES],
        client_tools: registry.definitions(),
      }, { signal: startup });
    } catch (error) {
      if (startup.aborted) return this.#stoppedBeforeTurn(writer);
      if (error instanceof ProtocolError) {
        throw new HostError("startup_failed", `Initialize failed: ${error.code}`);
      }
      throw error;
    }
    const descriptor = checkInitialized(init, registry);
    this.#init = init;
    this.#descriptor = descriptor;
    this.#started = true;
    if (this.#stallMs > 0) {
      this.#liveness = new LivenessProbe({
        stallMs: this.#stallMs,
        clock: this.#clock,
        probe: (signal) => client.status({ signal }),
        onStalled: () => {
          this.#stalled = true;
          this.#stop.kill("watchdog");
        },
      });
    }
    const wiring = wireTools({
      client,
      registry,
      descriptor,
      cwd: this.#cwd,
      kernel: this.#parts.kernel,
      limits: this.#parts.limits,
      argumentsPreview: this.#argumentsPreview,
      ...(this.#recordArguments === undefined ? {} : { recordArguments: this.#recordArguments }),
      records: () => this.#writer,
      approvals: { turn: () => this.#approvals, expiryMs: init.limits.approval_expiry_ms },
      onRequestBudgetExhausted: (error) => {
        this.#budgetError = error;
        this.#stop.budgetExhausted();
      },
      onSignInRequired: (tool) => {
        if (this.#sourceFailure !== null) return;
        const server = this.#parts.registry.get(tool)?.source.name ?? tool;
        this.#sourceFailure = signInRequiredError(server);
        this.#stop.sourceFailed();
      },
    });
    this.#executor = wiring.executor;
    this.#calls = wiring.calls;
    this.#unsubscribe = wiring.unsubscribe;
    this.#ready = readyRecord(this.#agent, client, init, this.#parts);
    writer.emit(this.#ready);
    this.#sourceWarnings?.attach(writer);
    startTools(registry, wiring.executor, { kernel: this.#parts.kernel, writer });
    return null;
  }

  /**
   * Phase 3: a session (created, or `session` opened) and one turn in it, under a stop
   * state of its own; emits the turn's records on `turn.writer`. Resolves with the turn's
   * exit code; throws on a failure (see {@link BackendRun.failure}). Only after
   * {@link BackendRun.initialize}.
   */
  async turn(turn: BackendTurnOptions): Promise<number> {
    const init = this.#init;
    const descriptor = this.#descriptor;
    const calls = this.#calls;
    if (init === null || descriptor === null || calls === null || this.#ready === null) {
      throw new Error("BackendRun.turn() before initialize()");
    }
    // Initialize and the first turn share the first stop state; each later turn gets its own.
    if (this.#turns++ > 0) {
      this.#stop = new StopState();
      if (this.#interruptNext) this.#stop.interrupt();
    }
    this.#interruptNext = false;
    this.#turning = true;
    ({ writer: this.#writer, approvals: this.#approvals } = turn);
    if (turn.announce === true) turn.writer.emit(this.#ready);
    try {
      return await backendTurn({
        client: this.#client,
        events: this.#events,
        init,
        descriptor,
        calls,
        stop: this.#stop,
        turnsBefore: this.#turnsStarted,
        clock: this.#clock,
        admitted: () => this.#turnsStarted++,
        stalled: () => this.#stalled ? this.#stalledFailure() : null,
        budgetError: () => this.#budgetError,
        sourceFailure: () => this.#sourceFailure,
        stoppedBeforeTurn: (writer) => this.#stoppedBeforeTurn(writer),
      }, turn);
    } finally {
      this.#turning = false;
    }
  }

  /**
   * The `host.error` of a phase's failure, emitted on `writer`; resolves with its exit
   * code. The connection is no longer {@link BackendRun.healthy} afterwards.
   */
  async failure(error: unknown, writer: SummaryWriter): Promise<number> {
    this.#failed = true;
    const stop = this.#stop;
    if (stop.hard.signal.aborted && stop.hardCause === "signal" && !this.#stalled) {
      // stdout still ends with a final record (docs/summaries.md).
      const record = hostErrorRecord(
        new HostError("interrupted", "Interrupted: a second SIGINT stopped the backend at once"),
        this.#started,
      );
      writer.emit(record);
      return record.exit_code;
    }
    let cause = this.#stalled
      ? this.#stalledFailure()
      : isEngineFailure(error)
      ? error
      : this.#client.failure ?? error;
    if (cause instanceof ClientClosed && !this.#stalled) {
      // A broken pipe while the backend is exiting (e.g. it exits at once): report its exit.
      const info = await waitWithin(this.#child.exited, EXIT_STATUS_WAIT_MS);
      if (info !== undefined) cause = new BackendExited(info.code, info.signal);
    }
    const record = hostErrorRecord(classify(cause), this.#started);
    writer.emit(record);
    return record.exit_code;
  }

  /**
   * Phase 4: the sources' warnings back to stderr, stop the liveness probe and the calls,
   * shut the backend down and reap it, stop the tool processes (even one stuck in a loop)
   * and wait for them. Never throws.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#sourceWarnings?.detach();
    this.#liveness?.stop();
    this.#unsubscribe();
    this.#calls?.abortAll();
    await Promise.all([
      closeBackend(this.#client, this.#child, this.#stop),
      this.#executor?.close(),
      this.#sources.close(),
    ]);
    // Calls ended by the close settle at once; their records come before stop() resolves.
    if (this.#calls !== null) await settleWithin(this.#calls.idle(), CALLS_SETTLE_MS);
    if (this.#events.return !== undefined) await this.#events.return().catch(() => {});
  }

  #stalledFailure(): HostFailure {
    return new HostError(
      "backend_stalled",
      `Backend stalled: no output for ${this.#stallMs / 1000} s and status was not answered`,
    );
  }

  #stoppedBeforeTurn(writer: SummaryWriter): number {
    const stop = this.#stop;
    if (this.#stalled) throw this.#stalledFailure();
    if (stop.cause === "output") return exitCodeOf("run_failed");
    if (stop.cause === "timeout") {
      throw timedOutBeforeTurn(this.#started ? null : this.#startDeadlineMs);
    }
    // After host.ready, stdout still ends with a final record (docs/summaries.md).
    if (this.#started) {
      writer.emit(
        hostErrorRecord(new HostError("interrupted", "Interrupted before the turn started"), true),
      );
    }
    return exitCodeOf("interrupted");
  }
}

const EXIT_STATUS_WAIT_MS = 2_000; // For the backend's exit status after its pipe broke.

const CALLS_SETTLE_MS = 1_000; // For calls ended by the executor's close to record results.
