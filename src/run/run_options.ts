/**
 * The options of a backend connection ({@link BackendStartOptions}), of one turn on it
 * ({@link BackendTurnOptions}) and of `run` (`runBackend`: both, and the invocation's deadline,
 * tool-error policy and abort signal).
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { PreparedToolDirs } from "../toolset/discovery.ts";
import type { ToolRegistry } from "../toolset/registry.ts";
import type { KernelSupport } from "../sandbox/kernel_policy.ts";
import type { StartedSources } from "../sources/start.ts";
import type { Reported } from "../errors/mod.ts";
import type { SummaryWriter } from "../summary/writer.ts";
import type { AgentCommand } from "./agent.ts";
import type { Approver } from "./approvals.ts";
import type { BackendStart } from "./backend_start.ts";
import type { KernelSandboxMode } from "./kernel_sandbox.ts";
import type { SourceWarnings } from "./sources.ts";
import type { ToolErrorTally } from "./tool_errors.ts";
import type { ArgumentsRecorder } from "./record_args.ts";

/** Options of {@link BackendRun.start}: the backend, the tools and the connection's settings. */
export interface BackendStartOptions {
  /** Tool directories (loaded unless `registry` is given). */
  toolDirs: string[];
  /** Put `arguments_preview` on `tool.call` records (the terminal view asks for it). */
  argumentsPreview?: boolean;
  /** Put the calls' arguments on `tool.call` records, secrets redacted (`--record-args`). */
  recordArguments?: ArgumentsRecorder;
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
  /**
   * The backend, already started by the caller (`startBackend`, as `run` does before the
   * host's modules load); default: started here, before the tool modules load.
   */
  backend?: BackendStart;
  /**
   * The tool directories' `prepareToolDirs`, already started by the caller (as `run` does
   * with the backend, so the describe child boots alongside it); default: started here.
   */
  tools?: Promise<PreparedToolDirs>;
  /** The config files in use (`ToolPlan.config.files`): host inputs no tool may write. */
  configFiles?: readonly string[];
  /**
   * The connection's clock and timers (a turn's `busy` retry after the previous run, the
   * watchdog after `turn.cancel`, the liveness probe); default `REAL_CLOCK` (a test's fake
   * clock drives them without waiting).
   */
  clock?: Clock;
}

/** One turn of a {@link BackendRun}: its prompt, session and summary output. */
export interface BackendTurnOptions {
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
  /**
   * The attempt of the turn's unit of work (a batch item run again after a kill: 2, …);
   * in `turn.started` and every call's `ctx.attempt`. Default: 1, not recorded.
   */
  attempt?: number;
  /** `--fail-on-tool-error`: the tally of this turn's tool errors and denials. */
  toolErrors?: ToolErrorTally | null;
  /** What stderr lines about this turn name it by (a batch item: `item <id>`); default none. */
  label?: string;
}

/**
 * Everything `run` needs, already validated: a connection's options, its one turn's
 * (`writer` is both's), and the invocation's own settings.
 */
export interface BackendRunOptions
  extends BackendStartOptions, Omit<BackendTurnOptions, "announce" | "toolErrors"> {
  /** Whole-invocation deadline, ms. */
  timeoutMs: number | undefined;
  /**
   * Deadline of the backend's start (spawn to the `initialize` answer), ms
   * (`--start-timeout`); default none.
   */
  startTimeoutMs?: number;
  /**
   * Exit 1 (`turn.finished` `exit_reason:"tool_errors"`) when a turn that
   * completed had a tool call end in error or be denied (`isToolError` in `tool_errors.ts`).
   */
  failOnToolError?: boolean;
  /** Aborting it stops the invocation like a SIGINT does (`turn.cancel`, then exit 130). */
  signal?: AbortSignal;
}
