/**
 * `run`: backend spawned while tools load → registry → initialize →
 * descriptor check → session → one turn → shutdown → reaped child → exit
 * code. A tool load failure stops the unused backend (EOF, then signals).
 *
 * The phases are the methods of {@link HostRun} (start, initialize, turn,
 * stop); {@link runHost} runs them once, a `batch` slot runs many turns on
 * one connection.
 *
 * @module
 */

import { settleWithin, waitWithin } from "../async/deadline.ts";
import { TransientMap } from "../async/transient_map.ts";
import { LocalAgentClient } from "../client/client.ts";
import { BackendExited, ClientClosed, RequestBudgetExhausted } from "../client/errors.ts";
import type { AgentEvent } from "../client/events.ts";
import { loadToolDirs, type PreparedToolDirs, prepareToolDirs } from "../host/discovery.ts";
import { describedTool } from "../host/sandbox/description.ts";
import type { ToolInfo } from "../host/define.ts";
import { ToolExecutor } from "../host/executor.ts";
import { progressRecord, type SourceWarnings } from "./sources.ts";
import { NO_SOURCES, type StartedSources } from "../config/sources.ts";
import type { ExternalTool } from "../host/external.ts";
import { isolationOf, unenforcedPermissionsWarning } from "../host/sandbox/mod.ts";
import { ToolRegistry } from "../host/registry.ts";
import { ToolCallSession } from "../host/session.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type {
  ClientToolsDescriptor,
  InitializeResult,
  Selection,
} from "../protocol/schemas/mod.ts";
import {
  type ChildHandle,
  onInterrupt,
  runtimeName,
  supportsProcessIsolation,
  writeStderrLine,
  writeTextFile,
} from "../runtime/mod.ts";
import type { HostReadyRecord, TurnFinishedRecord } from "../summary/records.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { AgentCommand } from "./agent.ts";
import { type BackendStart, discardBackend, startBackend } from "./backend_start.ts";
import type { Approver } from "./approvals.ts";
import { EXIT, exitCode as exitCodeOf } from "./exit_codes.ts";
import { classify, hostErrorRecord, isEngineFailure, osReason } from "./failure.ts";
import { HostError, isHostError, isReported, type Reported, reported } from "../errors/mod.ts";
import { LivenessProbe } from "./liveness.ts";
import { closeBackend } from "./shutdown.ts";
import { StopState } from "./stop.ts";
import { runTurn } from "./turn.ts";
import { ToolErrorTally } from "./tool_errors.ts";
import { sessionOpenFailure } from "./session_hint.ts";
import { backendStartFailure } from "./agent_errors.ts";
import {
  entryLevel,
  kernelForTools,
  kernelRequirementError,
  type KernelSandboxMode,
  type LevelEntry,
  limitsForTools,
  prefetchModuleGraphs,
  processLimitsRecord,
} from "./kernel_sandbox.ts";
import type { KernelSupport } from "../host/sandbox/kernel_policy.ts";
import type { ProcessLimits } from "../host/sandbox/containment.ts";

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
  approvals: Approver;
  /** Emit `message.delta` records. */
  deltas: boolean;
  /** Write the final assistant message here. */
  lastMessage: string | undefined;
  /** Whole-invocation deadline, ms. */
  timeoutMs: number | undefined;
  /** Quiet time before the liveness probe, ms; 0 or absent disables it. */
  stallTimeoutMs?: number;
  /**
   * Exit 1 (`turn.finished` `exit_reason:"tool_errors"`) when a turn that
   * completed had a tool call end in error or be denied (`isToolError` in `tool_errors.ts`).
   */
  failOnToolError?: boolean;
  /** Summary output. */
  writer: SummaryWriter;
  /** Put `arguments_preview` on `tool.call` records (the terminal view asks for it). */
  argumentsPreview?: boolean;
  /** Aborting it stops the invocation like a SIGINT does (`turn.cancel`, then exit 130). */
  signal?: AbortSignal;
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
   * The kernel layer under process-isolated tools: `auto` (default; used where available),
   * `off` (`--no-kernel-sandbox`), `require` (`--require-kernel-sandbox`: exit 2 at startup
   * unless every tool gets it).
   */
  kernelSandbox?: KernelSandboxMode;
  /**
   * The config's tool sources (MCP servers), started by the caller alongside the backend
   * (`startConfiguredSources`; `Reported`: a failure already reported, exit 2). Closed on
   * every exit path. Default: none.
   */
  sources?: Promise<StartedSources | Reported>;
  /** Where the sources' warnings go; attached to the writer after `host.ready`. */
  sourceWarnings?: SourceWarnings;
  /** The config files in use (`ToolPlan.config.files`): host inputs no tool may write. */
  configFiles?: readonly string[];
}

/** Options of {@link loadRegistry}. */
export interface LoadRegistryOptions {
  /** The tool directories' `prepareToolDirs`, already started by the caller. */
  readonly prepared?: Promise<PreparedToolDirs>;
  /** The config's tools (MCP servers, OpenAPI operations). */
  readonly external?: readonly ExternalTool[];
  /** The tools' working directory (their declared scopes resolve against it); default the host's. */
  readonly cwd?: string;
  /** The config files in use: host inputs that no tool may write (`sandbox/host_inputs.ts`). */
  readonly configFiles?: readonly string[];
  /**
   * `--require-kernel-sandbox`: given every tool as described (nothing imported in the host
   * yet), the refusal, or null to go on. A refusal is reported before any inline module is
   * imported (its top-level code never runs).
   */
  readonly admit?: (tools: readonly LevelEntry[]) => Promise<string | null>;
}

/**
 * Load tools and build the registry; a failure is reported on stderr and resolves
 * `Reported` with its code (`tool_load`, `registry`, `kernel_required`: exit 2).
 */
export async function loadRegistry(
  dirs: string[],
  options: LoadRegistryOptions = {},
): Promise<ToolRegistry | Reported> {
  const external = options.external ?? [];
  try {
    const prepared = await (options.prepared ?? prepareToolDirs(dirs));
    const refusal = options.admit === undefined
      ? null
      : await options.admit([...describedEntries(prepared), ...external.map(externalEntry)]);
    if (refusal !== null) {
      writeStderrLine(`magi-tools: ${refusal}`);
      return reported("kernel_required");
    }
    const loaded = await loadToolDirs(dirs, {
      prepared: Promise.resolve(prepared),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.configFiles === undefined ? {} : { configFiles: options.configFiles }),
    });
    const registry = ToolRegistry.fromLoaded(loaded, {
      requiredCapabilities: REQUIRED_CAPABILITIES,
      external,
    });
    // Without a process sandbox (Node.js) declared permissions are not enforced: say so once.
    const warning = supportsProcessIsolation()
      ? null
      : unenforcedPermissionsWarning(registry.tools.map((entry) => entry.tool), runtimeName());
    if (warning !== null) writeStderrLine(warning);
    return registry;
  } catch (error) {
    if (isHostError(error, "tool_load", "registry")) {
      writeStderrLine(`magi-tools: ${error.message}`);
      return reported(error.code);
    }
    throw error;
  }
}

/**
 * The modules as described, for `admit`: the zero-permission child's descriptions; without
 * one (Node.js: every module would be imported and run inline) each file as an inline tool.
 */
function describedEntries(prepared: PreparedToolDirs): LevelEntry[] {
  if (prepared.described === null) {
    return prepared.files.map((file) => ({ tool: { name: file, isolation: "inline" as const } }));
  }
  return prepared.described.flatMap((result) =>
    result.ok ? [{ tool: describedTool(result.tool) }] : []
  );
}

function externalEntry(tool: ExternalTool): LevelEntry {
  return { tool, source: tool.source };
}

/**
 * The `admit` of {@link loadRegistry} for a kernel sandbox `mode`: under `require`, the
 * refusal of {@link kernelRequirementError}, probing the kernel (once: the returned `kernel`
 * resolves with that answer, or null when nothing was probed).
 */
function admission(
  mode: KernelSandboxMode,
  known: KernelSupport | undefined,
): { admit?: LoadRegistryOptions["admit"]; kernel: () => Promise<KernelSupport> | null } {
  let kernel: Promise<KernelSupport> | null = known === undefined ? null : Promise.resolve(known);
  if (mode !== "require") return { kernel: () => kernel };
  return {
    admit: async (tools) => {
      kernel ??= kernelForTools(tools, mode);
      return kernelRequirementError(tools, await kernel);
    },
    kernel: () => kernel,
  };
}

/** Run one turn against a spawned backend; returns the exit code. Never throws for backend faults. */
export async function runHost(options: HostRunOptions): Promise<number> {
  const { writer } = options;
  const host = await HostRun.start(options);
  if (isReported(host)) return exitCodeOf(host.code);
  const removeInterrupt = onInterrupt(() => host.stopState.interrupt());
  const onAbort = () => host.stopState.interrupt();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (options.timeoutMs !== undefined) {
    timer = setTimeout(() => host.stopState.timeout(), options.timeoutMs);
  }
  // Nobody reads the summaries any more: cancel the turn and shut down (exit 1).
  const unwatch = host.watchOutput(writer);
  const toolErrors = options.failOnToolError === true ? new ToolErrorTally(writer) : null;
  let exitCode: number = EXIT.ok;
  try {
    exitCode = await host.initialize(writer) ?? await host.turn({
      prompt: options.prompt,
      session: options.session,
      writer,
      deltas: options.deltas,
      approvals: options.approvals,
      lastMessage: options.lastMessage,
      toolErrors,
    });
  } catch (error) {
    exitCode = await host.failure(error, writer);
  } finally {
    options.sourceWarnings?.detach();
    clearTimeout(timer);
    unwatch();
    await host.stop();
    removeInterrupt();
    toolErrors?.stop();
    options.signal?.removeEventListener("abort", onAbort);
  }
  await writer.flush();
  // Summaries lost: never report success (the turn was cancelled when stdout failed).
  if (writer.failed && exitCode === EXIT.ok) return EXIT.runFailed;
  return exitCode;
}

/** Options of {@link HostRun.start}: the backend, the tools and the connection's settings. */
export interface HostStartOptions {
  /** Tool directories (loaded unless `registry` is given). */
  toolDirs: string[];
  /** Put `arguments_preview` on `tool.call` records (the terminal view asks for it). */
  argumentsPreview?: boolean;
  /**
   * The kernel layer under process-isolated tools: `auto` (default; used where available),
   * `off` (`--no-kernel-sandbox`), `require` (`--require-kernel-sandbox`: exit 2 at startup
   * unless every tool gets it).
   */
  kernelSandbox?: KernelSandboxMode;
  /** The kernel probe's answer, already known (a batch probes once for its slots). */
  kernel?: KernelSupport;
  /**
   * The config's tool sources (MCP servers, OpenAPI documents), started by the caller
   * alongside the backend (`startConfiguredSources`; `Reported`: a failure already reported,
   * exit 2). Closed on every exit path. Default: none.
   */
  sources?: Promise<StartedSources | Reported>;
  /** Where the sources' warnings go; attached to the writer after `host.ready`. */
  sourceWarnings?: SourceWarnings;
  /** A registry already loaded (a batch shares one between its slots); default: loaded here. */
  registry?: ToolRegistry;
  /** Backend command. */
  agent: AgentCommand;
  /** Working directory of backend and tools. */
  cwd: string;
  /** Extra environment for the backend. */
  env?: Record<string, string>;
  /** Quiet time before the liveness probe, ms; 0 or absent disables it. */
  stallTimeoutMs?: number;
  /** Where `backend_unavailable` is reported when the backend cannot be spawned. */
  writer: SummaryWriter;
  /** The backend, already started by the caller; default: started here. */
  backend?: BackendStart;
  /** The tool directories' `prepareToolDirs`, already started by the caller. */
  tools?: Promise<PreparedToolDirs>;
  /** The config files in use (`ToolPlan.config.files`): host inputs no tool may write. */
  configFiles?: readonly string[];
}

/** One turn of a {@link HostRun}: its prompt, session and summary output. */
export interface HostTurnOptions {
  /** The prompt (non-blank, within the prompt bound). */
  prompt: string;
  /** Open this session instead of creating one. */
  session: string | undefined;
  /** Summary output of this turn (also receives the connection's tool records meanwhile). */
  writer: SummaryWriter;
  /** Emit `message.delta` records. */
  deltas: boolean;
  /** Approval decider. */
  approvals: Approver;
  /** Write the final assistant message here. */
  lastMessage: string | undefined;
  /** Emit the connection's `host.ready` record first (a batch item's own summary file). */
  announce?: boolean;
  /** `--fail-on-tool-error`: the tally of this turn's tool errors and denials. */
  toolErrors?: ToolErrorTally | null;
}

/**
 * One backend connection of the host, in phases: {@link HostRun.start} (the
 * registry and the spawned backend), {@link HostRun.initialize} (handshake,
 * descriptor check, executor, `host.ready`), {@link HostRun.turn} (a session
 * and one turn; `run` does one, a batch slot many, a new session each) and
 * {@link HostRun.stop} (shutdown, tool processes stopped, child reaped).
 * A failure of any phase is turned into its `host.error` by
 * {@link HostRun.failure}; after one, the connection is not
 * {@link HostRun.healthy} and only `stop` is left.
 */
export class HostRun {
  /** Stop state of the current turn (initialize and the first turn share the first one). */
  stopState: StopState = new StopState();
  readonly #agent: AgentCommand;
  readonly #cwd: string;
  readonly #stallMs: number;
  readonly #registry: ToolRegistry;
  /** The kernel layer's availability, probed once at start. */
  readonly #kernel: KernelSupport;
  /** Memory caps and a tool's own processes: how they are contained (null: no tool process). */
  readonly #limits: ProcessLimits | null;
  readonly #argumentsPreview: boolean;
  /** Turns admitted on this connection (a batch slot runs many). */
  #turnsStarted = 0;
  /** The config's tool sources (MCP servers, OpenAPI documents); closed by {@link HostRun.stop}. */
  readonly #sources: StartedSources;
  readonly #sourceWarnings: SourceWarnings | undefined;
  readonly #child: ChildHandle;
  readonly #client: LocalAgentClient;
  readonly #events: AsyncIterator<AgentEvent>;
  /** Where the connection's records (tool calls, logs) go: the current turn's writer. */
  #writer: SummaryWriter;
  #liveness: LivenessProbe | null = null;
  #stalled = false;
  #calls: ToolCallSession | null = null;
  #executor: ToolExecutor | null = null;
  #unsubscribe = () => {};
  /** host.ready was emitted: a stop before the turn still ends stdout with a record. */
  #started = false;
  #failed = false;
  #budgetError: RequestBudgetExhausted | null = null;
  #init: InitializeResult | null = null;
  #descriptor: ClientToolsDescriptor | null = null;
  #ready: Omit<HostReadyRecord, "ts" | "v"> | null = null;

  private constructor(
    options: HostStartOptions,
    registry: ToolRegistry,
    child: ChildHandle,
    parts: { kernel: KernelSupport; limits: ProcessLimits | null; sources: StartedSources },
  ) {
    this.#kernel = parts.kernel;
    this.#limits = parts.limits;
    this.#argumentsPreview = options.argumentsPreview === true;
    this.#sources = parts.sources;
    this.#sourceWarnings = options.sourceWarnings;
    this.#agent = options.agent;
    this.#cwd = options.cwd;
    this.#stallMs = options.stallTimeoutMs ?? 0;
    this.#registry = registry;
    this.#child = child;
    this.#writer = options.writer;
    // With a stall timeout every chunk from the backend counts as a sign of life.
    this.#client = new LocalAgentClient(
      this.#stallMs > 0
        ? {
          stdin: child.stdin,
          stdout: child.stdout,
          exited: child.exited,
          onActivity: () => this.#liveness?.activity(),
        }
        : child,
    );
    this.#events = this.#client.events()[Symbol.asyncIterator]();
  }

  /**
   * Phase 1: spawn the backend (unless given) while the tools load. Resolves with the
   * connection, or with the failure already reported: the tools fail to load (on stderr;
   * `tool_load`, `registry`, `kernel_required`, or the sources' `config`, `source_start`,
   * `feature_unavailable`) or the backend cannot be spawned (`backend_unavailable`,
   * `host.error` on the writer). `exitCode(reported.code)` is the exit code.
   */
  static async start(options: HostStartOptions): Promise<HostRun | Reported> {
    // The backend starts while the tool modules load; initialize waits for the registry.
    const start = options.backend ?? startBackend(options.agent, options);
    const sources = await (options.sources ?? Promise.resolve(NO_SOURCES)).catch(async (error) => {
      await discardBackend(start);
      throw error;
    });
    const kernelMode = options.kernelSandbox ?? "auto";
    const admitted = admission(kernelMode, options.kernel);
    if (isReported(sources)) {
      await discardBackend(start);
      return sources;
    }
    let registry: ToolRegistry | Reported;
    try {
      registry = options.registry ?? await loadRegistry(options.toolDirs, {
        ...(options.tools === undefined ? {} : { prepared: options.tools }),
        external: sources.tools,
        cwd: options.cwd,
        ...(options.configFiles === undefined ? {} : { configFiles: options.configFiles }),
        ...(admitted.admit === undefined ? {} : { admit: admitted.admit }),
      });
    } catch (error) {
      await Promise.all([discardBackend(start), sources.close()]);
      throw error;
    }
    if (isReported(registry)) {
      await Promise.all([discardBackend(start), sources.close()]);
      return registry;
    }
    // No probe process when no tool of this run would use the kernel layer.
    const [kernel, limits] = await Promise.all([
      admitted.kernel() ?? kernelForTools(registry.tools, kernelMode),
      limitsForTools(registry.tools),
    ]);
    const kernelError = kernelMode === "require"
      ? kernelRequirementError(registry.tools, kernel)
      : null;
    if (kernelError !== null) {
      writeStderrLine(`magi-tools: ${kernelError}`);
      await Promise.all([discardBackend(start), sources.close()]);
      return reported("kernel_required");
    }
    prefetchModuleGraphs(registry.tools, kernel, { cwd: options.cwd, limit: PREWARM_MAX_TOOLS });
    if (start.child === undefined) {
      await sources.close();
      // Only the command's basename on stdout (the command line may hold secrets), as
      // host.ready does; the full command as given on stderr.
      const { message, stderrLine } = backendStartFailure(options.agent, start.error);
      writeStderrLine(stderrLine);
      options.writer.emit(hostErrorRecord(new HostError("backend_unavailable", message), false));
      return reported("backend_unavailable");
    }
    return new HostRun(options, registry, start.child, { kernel, limits, sources });
  }

  /** Whether more turns can run on this connection (no failure, no hard stop). */
  get healthy(): boolean {
    return !this.#failed && !this.stopState.hard.signal.aborted && this.#client.failure === null &&
      this.#budgetError === null;
  }

  /** Soft-stop the current turn when `writer` fails; returns the remover. */
  watchOutput(writer: SummaryWriter): () => void {
    const onOutputFailed = () => this.stopState.outputFailed();
    writer.failure.addEventListener("abort", onOutputFailed, { once: true });
    return () => writer.failure.removeEventListener("abort", onOutputFailed);
  }

  /**
   * Phase 2: `initialize`, the descriptor check, the executor and the call session;
   * emits `host.ready` on `writer`. Resolves with null when ready, or with an exit code
   * when stopped first; throws on a failure (see {@link HostRun.failure}).
   */
  async initialize(writer: SummaryWriter): Promise<number | null> {
    this.#writer = writer;
    const client = this.#client;
    const registry = this.#registry;
    const startup = AbortSignal.any([this.stopState.soft.signal, this.stopState.hard.signal]);
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
    if (init.status.state === "failed" || init.status.readiness !== "ready") {
      throw new HostError(
        "startup_failed",
        `Backend not ready: ${init.status.readiness}`,
      );
    }
    const descriptor = init.descriptors?.["client.tools"];
    if (descriptor === undefined) {
      throw new HostError("descriptor_mismatch", "No client.tools descriptor");
    }
    try {
      registry.verifyDescriptor(descriptor);
    } catch (error) {
      if (isHostError(error, "registry")) {
        throw new HostError("descriptor_mismatch", error.message);
      }
      throw error;
    }
    this.#init = init;
    this.#descriptor = descriptor;
    this.#started = true;
    if (this.#stallMs > 0) {
      this.#liveness = new LivenessProbe({
        stallMs: this.#stallMs,
        probe: (signal) => client.status({ signal }),
        onStalled: () => {
          this.#stalled = true;
          this.stopState.kill("watchdog");
        },
      });
    }
    // One entry per running call: a TransientMap so that it does not promote every call's
    // objects to V8's old generation (src/async/transient_map.ts).
    const runOfCall = new TransientMap<string>();
    const tools = new ToolExecutor(registry, {
      limits: descriptor.limits,
      cwd: this.#cwd,
      kernelSandbox: this.#kernel,
      ...(this.#limits === null ? {} : { processLimits: this.#limits }),
      onLog: (log) => {
        const runId = runOfCall.get(log.callId);
        if (runId === undefined) return; // Not a call of this connection's session.
        this.#writer.emit({
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
    this.#executor = tools;
    const calls = new ToolCallSession(client, tools, {
      argumentsPreview: this.#argumentsPreview,
      onRecord: (record) => {
        if (record.type === "tool.call") runOfCall.set(record.call_id, record.run_id);
        this.#writer.emit(record);
        if (record.type === "tool.result") runOfCall.delete(record.call_id);
      },
      // No further tool result can be sent: cancel the turn (turn.cancel uses the
      // connection's reserved IDs), then end with one host.error (exit 1).
      onRequestBudgetExhausted: (error) => {
        this.#budgetError = error;
        this.stopState.budgetExhausted();
      },
    });
    this.#calls = calls;
    this.#unsubscribe = client.subscribe((event: AgentEvent) => calls.handle(event));
    this.#ready = {
      type: "host.ready",
      agent: this.#agent.label,
      instance_id: client.instanceId ?? "",
      provider: init.status.provider,
      model: init.status.model,
      capabilities: init.capabilities,
      tools: registry.tools.map((t) => ({
        name: t.definition.name,
        tool_id: t.toolId,
        effect: t.definition.effect,
        source: t.source.kind,
        source_name: t.source.name,
        sandbox: entryLevel(t, this.#kernel),
      })),
      // How memoryMb and the processes a tool starts are contained, where a tool has a process.
      ...(this.#limits === null ? {} : { process_limits: processLimitsRecord(this.#limits)! }),
      // Without a process sandbox (Node.js) every tool runs inline: say so.
      ...(supportsProcessIsolation()
        ? {}
        : { runtime: runtimeName(), isolation: "inline" as const }),
    };
    writer.emit(this.#ready);
    this.#sourceWarnings?.attach(writer);
    // Start the tool processes while the session and the model start (a first call then
    // skips the ~0.1–0.2 s process start); after host.ready, so startup does not wait for
    // the spawns. Each warm process holds a Deno runtime, so large tool sets start on first
    // use instead.
    const isolated =
      registry.tools.filter((t) =>
        t.source.kind === "module" && isolationOf(t.tool as ToolInfo) === "process"
      ).length;
    if (isolated <= PREWARM_MAX_TOOLS) {
      tools.prewarm().catch((error: unknown) => {
        writeStderrLine(`magi-tools: Cannot prewarm tool processes: ${String(error)}`);
      });
    }
    return null;
  }

  /**
   * `request()`, repeated while the backend answers `busy` because the previous turn on this
   * connection is still cleaning up after its `run.finished` ("another run/cleanup → busy"):
   * only after a turn ran here, with a growing pause, for at most {@link CLEANUP_BUSY_MS};
   * then (or on the first turn) `busy` is passed on. Stops when `signal` aborts.
   */
  async #afterCleanup<T>(request: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const until = performance.now() + CLEANUP_BUSY_MS;
    let pauseMs = 10;
    for (;;) {
      try {
        return await request();
      } catch (error) {
        const busy = error instanceof ProtocolError && error.code === "busy";
        if (!busy || this.#turnsStarted === 0 || signal.aborted || performance.now() >= until) {
          throw error;
        }
      }
      await settleWithin(new Promise(() => {}), pauseMs, { signal });
      pauseMs = Math.min(pauseMs * 2, 200);
    }
  }

  /**
   * Phase 3: a session (created, or `session` opened) and one turn in it; emits the
   * turn's records on `turn.writer`. Resolves with the turn's exit code; throws on a
   * failure (see {@link HostRun.failure}). Only after {@link HostRun.initialize}.
   */
  async turn(turn: HostTurnOptions): Promise<number> {
    const client = this.#client;
    const init = this.#init;
    const descriptor = this.#descriptor;
    const calls = this.#calls;
    if (init === null || descriptor === null || calls === null || this.#ready === null) {
      throw new Error("HostRun.turn() before initialize()");
    }
    const stop = this.stopState;
    const { writer } = turn;
    this.#writer = writer;
    if (turn.announce === true) writer.emit(this.#ready);
    const startup = AbortSignal.any([stop.soft.signal, stop.hard.signal]);
    let sessionId: string;
    try {
      if (turn.session !== undefined) {
        const session = turn.session;
        const opened = await this.#afterCleanup(
          () => client.sessionOpen(session, { signal: startup }),
          startup,
        );
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
        const created = await this.#afterCleanup(
          () => client.sessionCreate({ signal: startup }),
          startup,
        );
        sessionId = created.session_id;
        writer.emit({
          type: "session",
          session_id: sessionId,
          durable: created.durable,
          resumed: false,
        });
      }
    } catch (error) {
      if (startup.aborted) return this.#stoppedBeforeTurn(writer);
      throw (turn.session === undefined ? null : sessionOpenFailure(error, turn.session)) ?? error;
    }
    if (startup.aborted) return this.#stoppedBeforeTurn(writer);

    const admitted = await this.#afterCleanup(
      () => client.turnStart(sessionId, turn.prompt, { signal: stop.hard.signal }),
      stop.hard.signal,
    );
    this.#turnsStarted++;
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
        events: this.#events,
        writer,
        sessionId,
        runId,
        deltas: turn.deltas,
        approvals: turn.approvals,
        signal: stop.hard.signal,
      });
    } catch (error) {
      if (this.#stalled) throw this.#stalledFailure();
      if (stop.hardCause === "watchdog") {
        const why = stop.cause === "budget" ? " (sent because the request-ID budget ran out)" : "";
        throw new HostError(
          "backend_exited",
          `Backend did not finish the run after turn.cancel${why}`,
        );
      }
      throw error;
    } finally {
      removeStop();
      clearTimeout(watchdog);
    }
    // Every call answered, or a hard stop (the listener is removed either way).
    await settleWithin(calls.idle(), Infinity, { signal: stop.hard.signal });
    const finished = outcome.finished;
    if (stop.cause === "budget" && this.#budgetError !== null) {
      // The run ended (cancelled, or it finished first) without every tool answered.
      throw new HostError(
        "request_budget_exhausted",
        `${this.#budgetError.message}; the turn was cancelled (run.finished ${finished.outcome})`,
      );
    }
    const cause = finished.outcome === "cancelled" ? stop.cause : null;
    const cancelledBy = cause === "output" || cause === "budget" ? null : cause;
    let code: number = finished.outcome === "completed"
      ? EXIT.ok
      : cancelledBy === "signal"
      ? EXIT.interrupted
      : EXIT.runFailed;
    let exitReason: TurnFinishedRecord["exit_reason"];
    // Written before turn.finished, so the record's exit_code is the process's.
    if (turn.lastMessage !== undefined) {
      try {
        await writeTextFile(turn.lastMessage, outcome.lastMessage ?? "");
      } catch (error) {
        writeStderrLine(
          `magi-tools: Cannot write --last-message file: ${turn.lastMessage}: ${osReason(error)}`,
        );
        if (code === EXIT.ok) {
          code = EXIT.runFailed;
          exitReason = "last_message_unwritable";
        }
      }
    }
    if (writer.failed && code === EXIT.ok) {
      code = EXIT.runFailed;
      exitReason = "summary_output_failed";
    }
    const toolErrors = turn.toolErrors ?? null;
    if (toolErrors !== null && toolErrors.count > 0 && code === EXIT.ok) {
      writeStderrLine(
        `magi-tools: --fail-on-tool-error: ${toolErrors.count} tool error(s) or denial(s) in this turn: exit ${EXIT.runFailed}`,
      );
      code = EXIT.runFailed;
      exitReason = "tool_errors";
    }
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
      ...(exitReason === undefined ? {} : { exit_reason: exitReason }),
    });
    return code;
  }

  /**
   * The `host.error` of a phase's failure, emitted on `writer`; resolves with its exit
   * code. The connection is no longer {@link HostRun.healthy} afterwards.
   */
  async failure(error: unknown, writer: SummaryWriter): Promise<number> {
    this.#failed = true;
    const stop = this.stopState;
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
   * Phase 4: stop the liveness probe and the calls, shut the backend down and reap it,
   * stop the tool processes (even one stuck in a loop) and wait for them. Never throws.
   */
  async stop(): Promise<void> {
    this.#liveness?.stop();
    this.#unsubscribe();
    this.#calls?.abortAll();
    await Promise.all([
      closeBackend(this.#client, this.#child, this.stopState),
      this.#executor?.close(),
      this.#sources.close(),
    ]);
    // Calls ended by the close settle at once; their records come before stop() resolves.
    if (this.#calls !== null) await settleWithin(this.#calls.idle(), CALLS_SETTLE_MS);
    if (this.#events.return !== undefined) await this.#events.return().catch(() => {});
  }

  #stalledFailure(): HostError {
    return new HostError(
      "backend_stalled",
      `Backend stalled: no output for ${this.#stallMs / 1000} s and status was not answered`,
    );
  }

  #stoppedBeforeTurn(writer: SummaryWriter): number {
    const stop = this.stopState;
    if (this.#stalled) throw this.#stalledFailure();
    if (stop.cause === "output") return EXIT.runFailed;
    if (stop.cause === "timeout") {
      throw new HostError("startup_failed", "Timed out before the turn started");
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

/**
 * How long a later turn on one connection waits for the backend to finish cleaning up after the
 * previous turn (it answers `busy` meanwhile).
 */
const CLEANUP_BUSY_MS = 5_000;

/** How long calls ended by the executor's close may take to record their results. */
const CALLS_SETTLE_MS = 1_000;
