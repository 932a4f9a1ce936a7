/**
 * `run`: backend spawned while tools load → registry → initialize →
 * descriptor check → session → one turn → shutdown → reaped child → exit
 * code. A tool load failure stops the unused backend (EOF, then signals).
 *
 * @module
 */

import { LocalAgentClient } from "../client/client.ts";
import { BackendExited, ClientClosed, RequestBudgetExhausted } from "../client/errors.ts";
import type { AgentEvent } from "../client/events.ts";
import { loadToolDirs, type PreparedToolDirs, ToolLoadError } from "../host/discovery.ts";
import type { ToolInfo } from "../host/define.ts";
import { ToolExecutor } from "../host/executor.ts";
import { progressRecord, type SourceWarnings } from "./sources.ts";
import { NO_SOURCES, type StartedSources } from "../config/sources.ts";
import type { ExternalTool } from "../host/external.ts";
import { isolationOf } from "../host/sandbox/mod.ts";
import { RegistryError, ToolRegistry } from "../host/registry.ts";
import { ToolCallSession } from "../host/session.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type { InitializeResult, Selection } from "../protocol/schemas/mod.ts";
import {
  type ChildHandle,
  onInterrupt,
  runtimeName,
  SpawnError,
  supportsProcessIsolation,
  writeStderrLine,
  writeTextFile,
} from "../runtime/mod.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { AgentCommand } from "./agent.ts";
import { type BackendStart, discardBackend, startBackend } from "./backend_start.ts";
import type { ApprovalDecider } from "./approvals.ts";
import { EXIT } from "./exit_codes.ts";
import { classify, HostFailure, osReason } from "./failure.ts";
import { LivenessProbe } from "./liveness.ts";
import { closeBackend } from "./shutdown.ts";
import { StopState } from "./stop.ts";
import { runTurn } from "./turn.ts";

/** Capabilities `run` requires (and sends in `initialize`). */
export const REQUIRED_CAPABILITIES: readonly string[] = Object.freeze([
  "client.tools",
  "session.create",
  "session.open",
  "turn.start",
  "turn.cancel",
  "approval.answer",
  "status",
  "shutdown",
]);

/** Everything `run` needs, already validated. */
export interface HostRunOptions {
  /** The prompt (non-blank, within the prompt bound). */
  prompt: string;
  /** Tool directories. */
  toolDirs: string[];
  /** Backend command. */
  agent: AgentCommand;
  /** Working directory of backend and tools. */
  cwd: string;
  /** Extra environment for the backend. */
  env?: Record<string, string>;
  /** Open this session instead of creating one. */
  session: string | undefined;
  /** Approval decider. */
  approvals: ApprovalDecider;
  /** Emit `message.delta` records. */
  deltas: boolean;
  /** Write the final assistant message here. */
  lastMessage: string | undefined;
  /** Whole-invocation deadline, ms. */
  timeoutMs: number | undefined;
  /** Quiet time before the liveness probe, ms; 0 or absent disables it. */
  stallTimeoutMs?: number;
  /** Summary output. */
  writer: SummaryWriter;
  /**
   * The backend, already started by the caller ({@link startBackend}, as `run` does before
   * the host's modules load); default: started here, before the tool modules load.
   */
  backend?: BackendStart;
  /**
   * The tool directories' `prepareToolDirs`, already started by the caller (as `run` does
   * with the backend, so the describe child boots alongside it); default: started here.
   */
  tools?: Promise<PreparedToolDirs>;
  /**
   * The config's tool sources (MCP servers), started by the caller alongside the backend
   * (`startConfiguredSources`; null: a failure already reported, exit 2). Closed on every
   * exit path. Default: none.
   */
  sources?: Promise<StartedSources | null>;
  /** Where the sources' warnings go; attached to the writer after `host.ready`. */
  sourceWarnings?: SourceWarnings;
}

/** Load tools and build the registry; a failure is reported on stderr (exit 2). */
export async function loadRegistry(
  dirs: string[],
  prepared?: Promise<PreparedToolDirs>,
  external: readonly ExternalTool[] = [],
): Promise<ToolRegistry | null> {
  try {
    const loaded = await loadToolDirs(dirs, prepared === undefined ? {} : { prepared });
    return ToolRegistry.fromLoaded(loaded, {
      requiredCapabilities: REQUIRED_CAPABILITIES,
      external,
    });
  } catch (error) {
    if (error instanceof ToolLoadError || error instanceof RegistryError) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return null;
    }
    throw error;
  }
}

/** Run one turn against a spawned backend; returns the exit code. Never throws for backend faults. */
export async function runHost(options: HostRunOptions): Promise<number> {
  const { writer } = options;
  // The backend starts while the tool modules load; initialize waits for the registry.
  const start = options.backend ?? startBackend(options.agent, options);
  let registry: ToolRegistry | null;
  const sources = await (options.sources ?? Promise.resolve(NO_SOURCES)).catch(async (error) => {
    await discardBackend(start);
    throw error;
  });
  try {
    registry = sources === null
      ? null
      : await loadRegistry(options.toolDirs, options.tools, sources.tools);
  } catch (error) {
    await Promise.all([discardBackend(start), sources?.close()]);
    throw error;
  }
  if (registry === null) {
    await Promise.all([discardBackend(start), sources?.close()]);
    return EXIT.usage;
  }

  if (start.child === undefined) {
    await sources!.close();
    const error = start.error;
    // Only the command's basename (the command line may hold secrets), as host.ready does.
    const reason = error instanceof SpawnError && error.cause !== undefined
      ? `: ${osReason(error.cause)}`
      : "";
    const message = `Cannot start the backend command: ${options.agent.label}${reason}`;
    writer.emit({
      type: "host.error",
      code: "backend_unavailable",
      message,
      exit_code: EXIT.startup,
    });
    return EXIT.startup;
  }
  const child: ChildHandle = start.child;

  const stop = new StopState();
  const removeInterrupt = onInterrupt(() => stop.interrupt());
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(() => stop.timeout(), options.timeoutMs);
  }
  const stallMs = options.stallTimeoutMs ?? 0;
  let liveness: LivenessProbe | null = null;
  let stalled = false;
  // With a stall timeout every chunk from the backend counts as a sign of life.
  const client = new LocalAgentClient(
    stallMs > 0
      ? {
        stdin: child.stdin,
        stdout: child.stdout,
        exited: child.exited,
        onActivity: () => liveness?.activity(),
      }
      : child,
  );
  // Nobody reads the summaries any more: cancel the turn and shut down (exit 1).
  const onOutputFailed = () => stop.outputFailed();
  writer.failure.addEventListener("abort", onOutputFailed, { once: true });
  const events = client.events()[Symbol.asyncIterator]();
  let session: ToolCallSession | null = null;
  let executor: ToolExecutor | null = null;
  let unsubscribe = () => {};
  let started = false;
  let budgetError: RequestBudgetExhausted | null = null;
  let exitCode: number = EXIT.ok;
  try {
    exitCode = await drive();
  } catch (error) {
    if (stop.hard.signal.aborted && stop.hardCause === "signal" && !stalled) {
      exitCode = EXIT.interrupted;
      // stdout still ends with a final record (docs/summaries.md).
      writer.emit({
        type: "host.error",
        code: "interrupted",
        message: "Interrupted: a second SIGINT stopped the backend at once",
        exit_code: EXIT.interrupted,
      });
    } else {
      let cause = stalled
        ? stalledFailure()
        : error instanceof HostFailure
        ? error
        : client.failure ?? error;
      if (cause instanceof ClientClosed && !stalled) {
        // A broken pipe while the backend is exiting (e.g. it exits at once): report its exit.
        const info = await exitWithin(child, EXIT_STATUS_WAIT_MS);
        if (info !== undefined) cause = new BackendExited(info.code, info.signal);
      }
      const failure = classify(cause, started);
      writer.emit({
        type: "host.error",
        code: failure.code,
        message: failure.message,
        exit_code: failure.exitCode,
      });
      exitCode = failure.exitCode;
    }
  } finally {
    options.sourceWarnings?.detach();
    clearTimeout(timer);
    (liveness as LivenessProbe | null)?.stop();
    writer.failure.removeEventListener("abort", onOutputFailed);
    unsubscribe();
    (session as ToolCallSession | null)?.abortAll();
    // Every exit path stops the tool processes (even one stuck in a loop) and waits for them.
    await Promise.all([
      closeBackend(client, child, stop),
      (executor as ToolExecutor | null)?.close(),
      sources!.close(),
    ]);
    // Calls ended by the close settle at once; their records come before runHost returns.
    await settleWithin((session as ToolCallSession | null)?.idle(), CALLS_SETTLE_MS);
    removeInterrupt();
    if (events.return !== undefined) await events.return().catch(() => {});
  }
  await writer.flush();
  // Summaries lost: never report success (the turn was cancelled when stdout failed).
  if (writer.failed && exitCode === EXIT.ok) return EXIT.runFailed;
  return exitCode;

  function stalledFailure(): HostFailure {
    return new HostFailure(
      "backend_stalled",
      `Backend stalled: no output for ${stallMs / 1000} s and status was not answered`,
      EXIT.protocol,
    );
  }

  async function drive(): Promise<number> {
    const startup = AbortSignal.any([stop.soft.signal, stop.hard.signal]);
    let init: InitializeResult;
    try {
      init = await client.initialize({
        required_capabilities: [...REQUIRED_CAPABILITIES],
        client_tools: registry!.definitions(),
      }, { signal: startup });
    } catch (error) {
      if (startup.aborted) return stoppedBeforeTurn();
      if (error instanceof ProtocolError) {
        throw new HostFailure("startup_failed", `Initialize failed: ${error.code}`, EXIT.startup);
      }
      throw error;
    }
    if (init.status.state === "failed" || init.status.readiness !== "ready") {
      throw new HostFailure(
        "startup_failed",
        `Backend not ready: ${init.status.readiness}`,
        EXIT.startup,
      );
    }
    const descriptor = init.descriptors?.["client.tools"];
    if (descriptor === undefined) {
      throw new HostFailure("descriptor_mismatch", "No client.tools descriptor", EXIT.protocol);
    }
    try {
      registry!.verifyDescriptor(descriptor);
    } catch (error) {
      if (error instanceof RegistryError) {
        throw new HostFailure("descriptor_mismatch", error.message, EXIT.protocol);
      }
      throw error;
    }
    started = true;
    if (stallMs > 0) {
      liveness = new LivenessProbe({
        stallMs,
        probe: (signal) => client.status({ signal }),
        onStalled: () => {
          stalled = true;
          stop.kill("watchdog");
        },
      });
    }
    const runOfCall = new Map<string, string>();
    const tools = new ToolExecutor(registry!, {
      limits: descriptor.limits,
      cwd: options.cwd,
      onLog: (log) => {
        const runId = runOfCall.get(log.callId);
        if (runId === undefined) return; // Not a call of this connection's session.
        writer.emit({
          type: "tool.log",
          run_id: runId,
          call_id: log.callId,
          name: log.name,
          text: log.text,
          bytes: log.bytes,
          truncated_bytes: log.truncatedBytes,
        });
      },
      onProgress: (callId, name, update) => {
        const runId = runOfCall.get(callId);
        if (runId !== undefined) writer.emit(progressRecord(runId, callId, name, update));
      },
    });
    executor = tools;
    const calls = new ToolCallSession(client, tools, {
      onRecord: (record) => {
        if (record.type === "tool.call") runOfCall.set(record.call_id, record.run_id);
        writer.emit(record);
        if (record.type === "tool.result") runOfCall.delete(record.call_id);
      },
      // No further tool result can be sent: cancel the turn (turn.cancel uses the
      // connection's reserved IDs), then end with one host.error (exit 1).
      onRequestBudgetExhausted: (error) => {
        budgetError = error;
        stop.budgetExhausted();
      },
    });
    session = calls;
    unsubscribe = client.subscribe((event: AgentEvent) => calls.handle(event));
    writer.emit({
      type: "host.ready",
      agent: options.agent.label,
      instance_id: client.instanceId ?? "",
      provider: init.status.provider,
      model: init.status.model,
      capabilities: init.capabilities,
      tools: registry!.tools.map((t) => ({
        name: t.definition.name,
        tool_id: t.toolId,
        effect: t.definition.effect,
        source: t.source.kind,
        source_name: t.source.name,
      })),
      // Without a process sandbox (Node.js) every tool runs inline: say so.
      ...(supportsProcessIsolation()
        ? {}
        : { runtime: runtimeName(), isolation: "inline" as const }),
    });
    options.sourceWarnings?.attach(writer);
    // Start the tool processes while the session and the model start (a first call then
    // skips the ~0.1–0.2 s process start); after host.ready, so startup does not wait for
    // the spawns. Each warm process holds a Deno runtime, so large tool sets start on first
    // use instead.
    const isolated =
      registry!.tools.filter((t) =>
        t.source.kind === "module" && isolationOf(t.tool as ToolInfo) === "process"
      ).length;
    if (isolated <= PREWARM_MAX_TOOLS) {
      tools.prewarm().catch((error: unknown) => {
        writeStderrLine(`magi-tools: Cannot prewarm tool processes: ${String(error)}`);
      });
    }

    let sessionId: string;
    try {
      if (options.session !== undefined) {
        const opened = await client.sessionOpen(options.session, { signal: startup });
        sessionId = opened.session_id;
        // The backend restored the session's saved selection (or kept its own and said
        // saved_selection_unavailable): show which one this turn runs with.
        const status = await client.status({ signal: startup });
        writer.emit({
          type: "session",
          session_id: sessionId,
          durable: opened.durable,
          resumed: true,
          ...(status.selection === undefined
            ? {}
            : { selection: selectionFields(status.selection) }),
          notices: opened.notices,
        });
      } else {
        const created = await client.sessionCreate({ signal: startup });
        sessionId = created.session_id;
        writer.emit({
          type: "session",
          session_id: sessionId,
          durable: created.durable,
          resumed: false,
        });
      }
    } catch (error) {
      if (startup.aborted) return stoppedBeforeTurn();
      throw error;
    }
    if (startup.aborted) return stoppedBeforeTurn();

    const admitted = await client.turnStart(sessionId, options.prompt, {
      signal: stop.hard.signal,
    });
    const runId = admitted.run_id;
    writer.emit({ type: "turn.started", session_id: sessionId, run_id: runId });

    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const removeStop = stop.onSoftStop(() => {
      client.turnCancel(sessionId, runId).catch(() => {
        // stale_run: the run already finished; a connection failure surfaces in the loop.
      });
      // The backend owes run.finished after cancel grace and cleanup; then give up.
      const wait = descriptor.limits.cancel_grace_ms + init.limits.cleanup_wait_ms + 3_000;
      watchdog = setTimeout(() => stop.kill("watchdog"), wait);
    });
    let outcome;
    try {
      outcome = await runTurn({
        client,
        events,
        writer,
        sessionId,
        runId,
        deltas: options.deltas,
        approvals: options.approvals,
        signal: stop.hard.signal,
      });
    } catch (error) {
      if (stalled) throw stalledFailure();
      if (stop.hardCause === "watchdog") {
        const why = stop.cause === "budget" ? " (sent because the request-ID budget ran out)" : "";
        throw new HostFailure(
          "backend_exited",
          `Backend did not finish the run after turn.cancel${why}`,
          EXIT.protocol,
        );
      }
      throw error;
    } finally {
      removeStop();
      clearTimeout(watchdog);
    }
    await Promise.race([
      calls.idle(),
      new Promise((resolve) => stop.hard.signal.addEventListener("abort", resolve, { once: true })),
    ]);
    const finished = outcome.finished;
    if (stop.cause === "budget" && budgetError !== null) {
      // The run ended (cancelled, or it finished first) without every tool answered.
      throw new HostFailure(
        "request_budget_exhausted",
        `${
          (budgetError as RequestBudgetExhausted).message
        }; the turn was cancelled (run.finished ${finished.outcome})`,
        EXIT.runFailed,
      );
    }
    const cause = finished.outcome === "cancelled" ? stop.cause : null;
    const cancelledBy = cause === "output" || cause === "budget" ? null : cause;
    let code: number = finished.outcome === "completed"
      ? EXIT.ok
      : cancelledBy === "signal"
      ? EXIT.interrupted
      : EXIT.runFailed;
    // Written before turn.finished, so the record's exit_code is the process's.
    if (options.lastMessage !== undefined) {
      try {
        await writeTextFile(options.lastMessage, outcome.lastMessage ?? "");
      } catch (error) {
        writeStderrLine(
          `magi-tools: Cannot write --last-message file: ${options.lastMessage}: ${
            osReason(error)
          }`,
        );
        if (code === EXIT.ok) code = EXIT.runFailed;
      }
    }
    if (writer.failed && code === EXIT.ok) code = EXIT.runFailed;
    writer.emit({
      type: "turn.finished",
      session_id: sessionId,
      run_id: runId,
      outcome: finished.outcome,
      persistence: finished.persistence,
      revision: finished.revision,
      error_code: finished.error_code,
      cancelled_by: cancelledBy,
      exit_code: code,
    });
    return code;
  }

  function stoppedBeforeTurn(): number {
    if (stalled) throw stalledFailure();
    if (stop.cause === "output") return EXIT.runFailed;
    if (stop.cause === "timeout") {
      throw new HostFailure("startup_failed", "Timed out before the turn started", EXIT.startup);
    }
    // After host.ready, stdout still ends with a final record (docs/summaries.md).
    if (started) {
      writer.emit({
        type: "host.error",
        code: "interrupted",
        message: "Interrupted before the turn started",
        exit_code: EXIT.interrupted,
      });
    }
    return EXIT.interrupted;
  }
}

/** The `session` record's view of a `status.selection`. */
function selectionFields(selection: Selection | null) {
  if (selection === null) return null;
  return {
    provider: selection.provider,
    model: selection.model,
    requested_effort: selection.requested_effort,
    effective_effort: selection.effective_effort,
  };
}

/** At most this many process-isolated tools are started before their first call. */
const PREWARM_MAX_TOOLS = 8;

/** How long to wait for the backend's exit status after its pipe broke. */
const EXIT_STATUS_WAIT_MS = 2_000;

/** The child's exit within `ms`, or undefined. */
async function exitWithin(child: ChildHandle, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([child.exited, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long calls ended by the executor's close may take to record their results. */
const CALLS_SETTLE_MS = 1_000;

/** Wait for `promise` (if any) at most `ms`; never rejects. */
async function settleWithin(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (promise === undefined) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise.then(() => {}, () => {}), limit]);
  } finally {
    clearTimeout(timer);
  }
}
