/**
 * The process runner: warm `deno run` processes per tool, each with exactly
 * the tool's declared permissions, reused across calls, killed (SIGKILL) when
 * a signalled call does not stop within the grace period, and replaced when
 * they die. Deno only: the executor imports this module lazily, on the first
 * call of a process-isolated tool.
 *
 * @module
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { waitWithin } from "../async/deadline.ts";
import type { ToolInfo } from "../tool/define.ts";
import type { CallMessage } from "./channel.ts";
import type { LogBuffer } from "./log_buffer.ts";
import type { ToolProgress } from "../tool/external.ts";
import { NO_INHERIT_FLAG, permissionFlags } from "./permissions.ts";
import { sandboxFingerprint } from "./description.ts";
import { toolConfigFlags } from "./module_config.ts";
import { type ProcessOutcome, ToolProcess } from "./tool_process.ts";
import { type KernelSupport, kernelUnavailable } from "./kernel_policy.ts";
import {
  launchArgs,
  limitArgs,
  moduleFilesOf,
  probeKernelSandbox,
  runnerFilesOf,
} from "./kernel.ts";
import { probeProcessLimits, type ProcessLimits } from "./containment.ts";
import { announceKernelUnavailable } from "./kernel_notice.ts";
import { runtimeExecutable } from "../runtime/mod.ts";
import { PROXY_VARIABLES, RUNTIME_VARIABLES, toolEnvironment } from "./tool_env.ts";

/**
 * The host's variables for {@link toolEnvironment}: all of them when the host may read its
 * whole environment, else those of {@link RUNTIME_VARIABLES}, {@link PROXY_VARIABLES} and the
 * tool's own list (`declared`) when it may read every one of them. Null when it may not: it
 * cannot choose what to pass (a variable it may not read could be one the runtime needs, such as
 * `HOME`), and the process inherits the host's environment. Never prompts.
 */
function hostEnvironment(declared: ToolInfo["permissions"]): Record<string, string> | null {
  const readable = (name?: string) =>
    Deno.permissions.querySync(
      name === undefined ? { name: "env" } : { name: "env", variable: name },
    )
      .state === "granted";
  if (readable()) return Deno.env.toObject();
  const own = Array.isArray(declared?.env) ? declared.env : [];
  const names = [...RUNTIME_VARIABLES, ...PROXY_VARIABLES, ...own];
  if (names.some((name) => name.endsWith("*") || !readable(name))) return null;
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** How an isolated call ended: the process's outcome, or killed after the grace period. */
export type IsolatedOutcome = ProcessOutcome | { readonly kind: "killed" };

/** One call for {@link ProcessRunner.run}. */
export interface IsolatedCall {
  /** The tool. */
  readonly tool: ToolInfo;
  /**
   * Its module file (as discovered; relative paths resolve against the host's cwd), or a
   * `file:` URL used as is (query included: the OpenAPI source passes its pool's settings so).
   */
  readonly file: string;
  /** Arguments and context for the child. */
  readonly message: Omit<CallMessage, "t" | "id">;
  /** The call's stop signal; after it fires the tool has `graceMs` before its process is killed. */
  readonly signal: AbortSignal;
  /** Grace after the signal, ms. */
  readonly graceMs: number;
  /** Receives the tool's output. */
  readonly log: LogBuffer;
  /** Receives the tool's `ctx.progress` updates (checked, not yet rate-bounded). */
  readonly progress?: (update: ToolProgress) => void;
}

/** Options of {@link ProcessRunner}. */
export interface ProcessRunnerOptions {
  /** Working directory of tool processes; relative permission paths resolve against it. */
  readonly cwd: string;
  /** The `deno` executable; default the running one (`runtimeExecutable()`). */
  readonly denoPath?: string;
  /**
   * Idle warm processes kept per tool; default {@link DEFAULT_MAX_IDLE} (the protocol's
   * `concurrent_calls`), so calls of one tool that overlap find warm processes.
   */
  readonly maxIdle?: number;
  /**
   * Idle warm processes kept over all tools; default the larger of
   * {@link DEFAULT_MAX_IDLE_TOTAL} and `maxIdle`. Over it, the process idle longest (of any
   * tool) is closed.
   */
  readonly maxIdleTotal?: number;
  /**
   * The kernel layer (Landlock): `"auto"` (default) probes the kernel and uses it where
   * available; `"off"` never uses it; or the host's own probe result.
   */
  readonly kernelSandbox?: "auto" | "off" | KernelSupport | Promise<KernelSupport>;
  /**
   * Say once on stderr (`kernel_notice.ts`) when tools run without the kernel layer; default
   * false (the OpenAPI source's request processes are not tools of that layer).
   */
  readonly announceKernel?: boolean;
  /** How memory caps and a tool's own processes are contained; default probed. */
  readonly processLimits?: ProcessLimits | Promise<ProcessLimits>;
}

/** Default idle processes per tool: `concurrent_calls` of the `client.tools` limits. */
export const DEFAULT_MAX_IDLE = 4;

/** Default idle processes over all tools (the host prewarms at most 8 tools). */
export const DEFAULT_MAX_IDLE_TOTAL = 8;

interface Pool {
  readonly idle: ToolProcess[];
  readonly all: Set<ToolProcess>;
}

/**
 * Runs process-isolated tools on warm processes.
 *
 * Bounds: a call takes an idle process of its tool, or spawns one when none
 * is idle, so busy processes are at most the calls running at once (the
 * executor's `concurrent_calls` slots). A finished call's process goes back
 * to its tool's idle pool unless that holds `maxIdle` already (then it is
 * closed); over `maxIdleTotal` idle processes in all, the one idle longest is
 * closed. So live processes ≤ running calls + `maxIdleTotal`, plus processes
 * exiting after a close or kill.
 */
export class ProcessRunner {
  readonly #cwd: string;
  readonly #denoPath: string;
  readonly #maxIdle: number;
  readonly #maxIdleTotal: number;
  readonly #pools = new Map<string, Pool>();
  /** Every idle process, longest idle first, with its pool. */
  readonly #idle = new Map<ToolProcess, Pool>();
  readonly #kernel: Promise<KernelSupport>;
  readonly #announce: boolean;
  /** Whether the kernel layer is used, once {@link ProcessRunner.#kernel} settled. */
  #kernelOn = false;
  readonly #limitsPromise: Promise<ProcessLimits>;
  /** Once settled ({@link ProcessRunner.#ready}). */
  #limits: ProcessLimits | undefined;
  /** Each tool module's local files (its module graph), for the kernel layer's read rules. */
  readonly #graphsDone = new Map<string, string[]>();
  #closed = false;

  /** A runner; spawns nothing until the first call or {@link ProcessRunner.prewarm}. */
  constructor(options: ProcessRunnerOptions) {
    this.#cwd = options.cwd;
    this.#denoPath = options.denoPath ?? runtimeExecutable();
    this.#maxIdle = Math.max(0, options.maxIdle ?? DEFAULT_MAX_IDLE);
    this.#maxIdleTotal = Math.max(
      0,
      options.maxIdleTotal ?? Math.max(DEFAULT_MAX_IDLE_TOTAL, this.#maxIdle),
    );
    this.#announce = options.announceKernel === true;
    const kernel = options.kernelSandbox ?? "auto";
    this.#kernel = kernel === "off"
      ? Promise.resolve(kernelUnavailable("switched off (--no-kernel-sandbox)"))
      : kernel === "auto"
      ? probeKernelSandbox(this.#denoPath)
      : Promise.resolve(kernel);
    this.#limitsPromise = Promise.resolve(options.processLimits ?? probeProcessLimits());
  }

  /**
   * Wait until `file` can be spawned: the kernel layer probed and, when it is used, the
   * module's local files known. Afterwards {@link ProcessRunner.#spawn} is synchronous.
   */
  async #ready(file: string): Promise<void> {
    this.#limits = await this.#limitsPromise;
    const kernel = await this.#kernel;
    this.#kernelOn = kernel.available;
    if (!kernel.available && this.#announce) announceKernelUnavailable(kernel.reason ?? "unknown");
    if (!this.#kernelOn || this.#graphsDone.has(file)) return;
    const options = { cwd: this.#cwd, denoPath: this.#denoPath };
    const [graph, runner] = await Promise.all([
      moduleFilesOf(resolve(file), options),
      runnerFilesOf(options),
    ]);
    this.#graphsDone.set(file, [...new Set([...graph, ...runner])]);
  }

  /** Start one idle process for `tool` if it has none; resolves once it was started. */
  async prewarm(tool: ToolInfo, file: string): Promise<void> {
    await this.#ready(file);
    const pool = this.#pool(tool.name);
    if (!this.#closed && pool.idle.length === 0 && this.#maxIdle > 0) {
      this.#park(this.#spawn(tool, file, pool), pool);
    }
  }

  /** Idle processes over all tools (for tests and diagnostics). */
  get idleCount(): number {
    return this.#idle.size;
  }

  /** Process IDs of `name`'s live processes (idle first). */
  pids(name: string): number[] {
    const pool = this.#pools.get(name);
    return pool === undefined ? [] : [...pool.all].filter((p) => p.alive).map((p) => p.pid);
  }

  /** Run one call on a warm (or new) process of the tool. Never rejects. */
  async run(call: IsolatedCall): Promise<IsolatedOutcome> {
    if (this.#closed) {
      return { kind: "crashed", message: "the tool host is shutting down" };
    }
    await this.#ready(call.file);
    if (this.#closed) {
      return { kind: "crashed", message: "the tool host is shutting down" };
    }
    const pool = this.#pool(call.tool.name);
    let process = this.#take(pool);
    while (process !== undefined && !process.alive) process = this.#take(pool);
    let proc: ToolProcess;
    try {
      proc = process ?? this.#spawn(call.tool, call.file, pool);
    } catch (error) {
      // For example the host lacks --allow-run for the Deno executable.
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: "crashed", message: `the tool process cannot be started: ${reason}` };
    }
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let onStop: (() => void) | undefined;
    let killed = false;
    try {
      const outcome = await new Promise<IsolatedOutcome>((resolve) => {
        proc.call(call.message, call.log, call.progress).then(
          resolve,
          (error: unknown) => resolve({ kind: "crashed", message: String(error) }),
        );
        onStop = () => {
          proc.cancel();
          graceTimer = setTimeout(() => {
            killed = true;
            proc.kill();
            resolve({ kind: "killed" });
          }, call.graceMs);
        };
        if (call.signal.aborted) onStop();
        else call.signal.addEventListener("abort", onStop, { once: true });
      });
      if (outcome.kind === "crashed" && outcome.interrupted === true) {
        // The terminal's Ctrl-C killed the process; the host's own SIGINT handling cancels the
        // turn, and the call's stop follows. Wait for it (at most the grace), so the call is
        // answered `cancelled`, not `tool_crashed`. Without a stop, it is a crash.
        call.signal.removeEventListener("abort", onStop!);
        await waitWithin(new Promise<never>(() => {}), call.graceMs, { signal: call.signal });
      }
      return outcome;
    } finally {
      clearTimeout(graceTimer);
      if (onStop !== undefined) call.signal.removeEventListener("abort", onStop);
      this.#release(proc, pool, { killed, tool: call.tool, file: call.file });
    }
  }

  /** Stop every process (idle ones get EOF, busy ones are killed) and wait for them. */
  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#pools.values()].flatMap((pool) => [...pool.all]);
    for (const pool of this.#pools.values()) pool.idle.length = 0;
    this.#idle.clear();
    await Promise.all(all.map((proc) => proc.busy ? (proc.kill(), proc.finished) : proc.close()));
  }

  #pool(name: string): Pool {
    let pool = this.#pools.get(name);
    if (pool === undefined) {
      pool = { idle: [], all: new Set() };
      this.#pools.set(name, pool);
    }
    return pool;
  }

  #spawn(tool: ToolInfo, file: string, pool: Pool): ToolProcess {
    const url = file.startsWith("file:") ? file : pathToFileURL(resolve(file)).href;
    const flags = [
      "--no-prompt",
      NO_INHERIT_FLAG,
      ...toolConfigFlags(),
      ...permissionFlags(tool.permissions, this.#cwd),
    ];
    if (tool.memoryMb !== undefined) {
      flags.push(`--v8-flags=--max-old-space-size=${tool.memoryMb}`);
    }
    flags.push(`--preload=${url}`);
    // Never a silently weaker process: without its graph it gets its own file only.
    const moduleFiles = this.#graphsDone.get(file) ?? [resolve(file)];
    const limits = this.#limits;
    const memoryMb = tool.memoryMb;
    const launch = this.#kernelOn
      ? (args: readonly string[]) =>
        launchArgs({
          permissions: tool.permissions,
          cwd: this.#cwd,
          denoPath: this.#denoPath,
          moduleFiles,
          args,
          ...(memoryMb === undefined || limits?.memory !== "rlimit" ? {} : { memoryMb }),
        })
      : memoryMb !== undefined && limits?.memory === "rlimit"
      ? (args: readonly string[]) => limitArgs(memoryMb, this.#denoPath, args)
      : undefined;
    const host = hostEnvironment(tool.permissions);
    const env = host === null ? null : toolEnvironment(tool.permissions, host);
    const proc = new ToolProcess({
      name: tool.name,
      url,
      denoPath: this.#denoPath,
      flags,
      cwd: this.#cwd,
      fingerprint: sandboxFingerprint(tool),
      ...(tool.memoryMb === undefined ? {} : { memoryMb: tool.memoryMb }),
      ...(launch === undefined ? {} : { launch }),
      ...(limits === undefined ? {} : { wrapper: limits.wrapper }),
      ...(env === null ? {} : { env }),
    });
    pool.all.add(proc);
    void proc.finished.then(() => {
      pool.all.delete(proc);
      this.#unpark(proc, pool);
    });
    return proc;
  }

  /** The most recently parked idle process of `pool`, taken out of the idle sets. */
  #take(pool: Pool): ToolProcess | undefined {
    const proc = pool.idle.pop();
    if (proc !== undefined) this.#idle.delete(proc);
    return proc;
  }

  /** Make `proc` idle; over the total bound, close the process idle longest. */
  #park(proc: ToolProcess, pool: Pool): void {
    pool.idle.push(proc);
    this.#idle.set(proc, pool);
    while (this.#idle.size > this.#maxIdleTotal) {
      const [oldest, its] = this.#idle.entries().next().value!;
      this.#unpark(oldest, its);
      void oldest.close();
    }
  }

  #unpark(proc: ToolProcess, pool: Pool): void {
    this.#idle.delete(proc);
    const index = pool.idle.indexOf(proc);
    if (index >= 0) pool.idle.splice(index, 1);
  }

  #release(proc: ToolProcess, pool: Pool, how: { killed: boolean; tool: ToolInfo; file: string }) {
    if (!how.killed && proc.alive && !proc.busy) {
      if (!this.#closed && pool.idle.length < this.#maxIdle) this.#park(proc, pool);
      else void proc.close();
      return;
    }
    if (proc.alive) proc.kill();
    // Killed or dead during a call: start its replacement now, so the next call finds it warm.
    if (!this.#closed && pool.idle.length === 0 && this.#maxIdle > 0) {
      this.#park(this.#spawn(how.tool, how.file, pool), pool);
    }
  }
}
