/**
 * One warm tool process: a `deno run` child with exactly the tool's
 * permissions, speaking the private channel of `channel.ts` (Deno only,
 * internal to the process runner).
 *
 * @module
 */

import {
  type CallMessage,
  type ChildMessage,
  FRAME_MARK,
  type HostMessage,
  MAX_FRAME_CHARS,
} from "./channel.ts";
import { settleWithin } from "../async/deadline.ts";
import type { LogBuffer } from "./log_buffer.ts";
import type { ToolProgress } from "../tool/external.ts";
import { progressUpdate } from "../tool/progress.ts";
import { wrapped } from "./containment.ts";
import { LAUNCH_ERROR_PREFIX, LAUNCH_FAILED } from "./kernel_policy.ts";
import {
  type ChildHandle,
  type ExitInfo,
  spawnChild,
  SpawnError,
  terminalText,
} from "../runtime/mod.ts";

/** How a call on a process ended (before the runner applies grace and kill). */
export type ProcessOutcome =
  | { readonly kind: "value"; readonly text: string }
  | { readonly kind: "content"; readonly parts: readonly unknown[] }
  | { readonly kind: "too_large"; readonly bytes: number }
  | { readonly kind: "invalid"; readonly text: string }
  | { readonly kind: "invalid_output"; readonly text: string }
  | {
    readonly kind: "thrown";
    readonly message: string;
    readonly stack?: string;
    readonly permission?: string;
  }
  | {
    readonly kind: "crashed";
    readonly message: string;
    readonly permission?: string;
    /**
     * Killed by SIGINT: a terminal's Ctrl-C reached the process (in the instant between its
     * start and its `setsid()`, while it is still in the terminal's process group).
     */
    readonly interrupted?: true;
  };

/** How to start a tool process. */
export interface ToolProcessSpec {
  /** Tool name (checked by the child against the module's default export). */
  readonly name: string;
  /** The tool module's file URL. */
  readonly url: string;
  /** `deno` executable. */
  readonly denoPath: string;
  /** Flags before the runner: `--no-prompt`, `--allow-*`, `--v8-flags`, `--preload`. */
  readonly flags: readonly string[];
  /** The child's working directory. */
  readonly cwd: string;
  /**
   * Memory cap in MiB, for the error messages (the launcher enforces it: `RLIMIT_DATA`, see
   * `containment.ts`).
   */
  readonly memoryMb?: number;
  /** `sandboxFingerprint()` of the tool as described; the runner checks its own against it. */
  readonly fingerprint?: string;
  /**
   * Wraps the `deno` arguments (`run`, flags, runner) into the kernel layer's launcher
   * command (`kernel.ts` `launchArgs`); absent: `deno run` directly.
   */
  readonly launch?: (denoArgs: readonly string[]) => string[];
  /**
   * A command the whole launch runs under (`ProcessLimits.wrapper`: `unshare` for a PID
   * namespace); absent or empty: none. {@link ToolProcess.pid} is then the wrapper's.
   */
  readonly wrapper?: readonly string[];
  /**
   * The process's whole environment (`tool_env.ts`); absent: the host's, plus `NO_COLOR=1`.
   */
  readonly env?: Readonly<Record<string, string>>;
}

const RUNNER_PATH = new URL("./runner.ts", import.meta.url).href;
const STDERR_TAIL_CHARS = 4_096;
const PIPE_DRAIN_MS = 250;
/** V8's messages for an allocation that failed (`RangeError`), e.g. under `RLIMIT_DATA`. */
const ALLOCATION_FAILED = /allocation failed/i;
const encoder = new TextEncoder();

interface Pending {
  readonly id: number;
  readonly resolve: (outcome: ProcessOutcome) => void;
  readonly log: LogBuffer;
  readonly progress: ((update: ToolProgress) => void) | undefined;
  cancelled: boolean;
  sent: boolean;
}

/** Throws the file system's error when `path` cannot be found (an unknown: nothing). */
function assertRunnable(path: string): void {
  try {
    Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      throw error;
    }
  }
}

/** A running tool process. One call at a time. */
export class ToolProcess {
  /** The child's process ID. */
  readonly pid: number;
  /** Resolves once the child exited and its pipes are drained. */
  readonly finished: Promise<void>;
  readonly #spec: ToolProcessSpec;
  readonly #child: ChildHandle;
  readonly #stderr: ReadableStream<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #prefix: string;
  readonly #ready: Promise<ProcessOutcome | null>;
  #resolveReady: (value: ProcessOutcome | null) => void = () => {};
  #pending: Pending | undefined;
  #alive = true;
  #crash: { message: string; permission?: string } | undefined;
  #stderrTail = "";
  #nextId = 1;

  /** Spawn the child and send it the init line. */
  constructor(spec: ToolProcessSpec) {
    this.#spec = spec;
    const token = crypto.randomUUID().replaceAll("-", "") +
      crypto.randomUUID().replaceAll("-", "");
    this.#prefix = `${FRAME_MARK}${token} `;
    this.#ready = new Promise((resolve) => this.#resolveReady = resolve);
    // Its own process group (spawnChild): a terminal's Ctrl-C reaches the host only, which
    // then cancels the call instead of the tool process dying under it.
    try {
      const args = ["run", ...spec.flags, RUNNER_PATH];
      // Under a wrapper a missing Deno would only show as the wrapper's exit code.
      if ((spec.wrapper ?? []).length > 0) assertRunnable(spec.denoPath);
      const command = wrapped(
        { wrapper: spec.wrapper ?? [] },
        spec.denoPath,
        spec.launch?.(args) ?? args,
      );
      this.#child = spawnChild(command.command, command.args, {
        cwd: spec.cwd,
        stderr: "piped",
        // No OpenTelemetry export of its own (its exporter would be a network channel out of
        // the sandbox, and Deno's fetch spans would start unrelated traces): the host traces
        // the call and hands the tool `ctx.traceparent` (docs/telemetry.md).
        ...(spec.env === undefined
          ? { env: { NO_COLOR: "1", OTEL_DENO: "false" } }
          : { env: { ...spec.env, OTEL_DENO: "false" }, clearEnv: true }),
      });
    } catch (error) {
      // The reason (for example a missing --allow-run) rather than the generic wrapper.
      throw error instanceof SpawnError && error.cause instanceof Error ? error.cause : error;
    }
    this.#stderr = this.#child.stderr!;
    this.pid = this.#child.pid;
    this.#writer = this.#child.stdin.getWriter();
    this.#send({
      t: "init",
      token,
      name: spec.name,
      url: spec.url,
      ...(spec.fingerprint === undefined ? {} : { fingerprint: spec.fingerprint }),
    });
    const stdout = this.#readStdout();
    const stderr = this.#readStderr();
    this.finished = this.#child.exited.then(async (status) => {
      this.#alive = false;
      // A grandchild holding the pipes open must not keep the answer waiting.
      await settleWithin(Promise.all([stdout, stderr]), PIPE_DRAIN_MS);
      await this.#writer.close().catch(() => {});
      const outcome = this.#exitOutcome(status);
      this.#resolveReady(outcome);
      const pending = this.#pending;
      this.#pending = undefined;
      pending?.resolve(outcome);
    });
  }

  /** Whether the child is still running. */
  get alive(): boolean {
    return this.#alive;
  }

  /** Whether a call is running. */
  get busy(): boolean {
    return this.#pending !== undefined;
  }

  /**
   * Run one call: waits until the tool loaded, sends the call, resolves with
   * its outcome (or `crashed` when the child dies). Output goes to `log`, the tool's
   * `ctx.progress` updates (checked) to `progress`.
   */
  async call(
    message: Omit<CallMessage, "t" | "id">,
    log: LogBuffer,
    progress?: (update: ToolProgress) => void,
  ): Promise<ProcessOutcome> {
    if (this.#pending !== undefined) throw new Error("Tool process is busy");
    const id = this.#nextId++;
    const result = new Promise<ProcessOutcome>((resolve) => {
      this.#pending = { id, resolve, log, progress, cancelled: false, sent: false };
    });
    const failed = await this.#ready;
    if (failed !== null) {
      this.#pending = undefined;
      return failed;
    }
    this.#send({ t: "call", id, ...message });
    const pending = this.#pending as Pending | undefined;
    if (pending?.id === id) {
      pending.sent = true;
      if (pending.cancelled) this.#send({ t: "cancel", id });
    }
    return await result;
  }

  /** Abort the running call's signal. */
  cancel(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    pending.cancelled = true;
    if (pending.sent) this.#send({ t: "cancel", id: pending.id });
  }

  /** SIGKILL now; the running call (if any) is left for the caller to answer. */
  kill(): void {
    this.#pending = undefined;
    if (!this.#alive) return;
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Close stdin so the runner exits; kill if it has not after `graceMs`. */
  async close(graceMs = 500): Promise<void> {
    await this.#writer.close().catch(() => {});
    if (!(await settleWithin(this.finished, graceMs))) this.kill();
    await this.finished;
  }

  #send(message: HostMessage): void {
    if (!this.#alive) return;
    this.#writer.write(encoder.encode(`${JSON.stringify(message)}\n`)).catch(() => {});
  }

  #log(text: string): void {
    if (this.#pending !== undefined) this.#pending.log.append(text);
    else if (text.trim() !== "") {
      // Output outside a call: the host's stderr (never stdout), bounded.
      console.error(terminalText(`[tool ${this.#spec.name}] ${text.slice(0, 1_024).trimEnd()}`));
    }
  }

  async #readStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of this.#child.stdout) {
        buffered += decoder.decode(chunk, { stream: true });
        let newline = buffered.indexOf("\n");
        while (newline >= 0) {
          this.#line(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf("\n");
        }
        if (buffered.length > MAX_FRAME_CHARS) {
          if (buffered.startsWith(this.#prefix)) {
            this.#crash = { message: "the tool process sent an oversized message" };
            this.kill();
          } else this.#log(buffered);
          buffered = "";
        }
      }
    } catch {
      // The pipe broke: the exit handler answers.
    }
    if (buffered !== "") this.#line(buffered);
  }

  async #readStderr(): Promise<void> {
    try {
      for await (const text of this.#stderr.pipeThrough(new TextDecoderStream())) {
        this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
        this.#log(text);
      }
    } catch {
      // The pipe broke: the exit handler answers.
    }
  }

  #line(line: string): void {
    if (line === "") return;
    if (!line.startsWith(this.#prefix)) return this.#log(`${line}\n`);
    let message: ChildMessage;
    try {
      message = JSON.parse(line.slice(this.#prefix.length)) as ChildMessage;
    } catch {
      this.#crash = { message: "the tool process sent a malformed message" };
      return this.kill();
    }
    this.#message(message);
  }

  #message(message: ChildMessage): void {
    switch (message.t) {
      case "ready":
        return this.#resolveReady(null);
      case "load_error":
        this.#crash = {
          message: `the tool module failed to load in its process: ${message.message}`,
          ...(message.permission === undefined ? {} : { permission: message.permission }),
        };
        return;
      case "log":
        return this.#log(message.text);
      case "progress":
        return this.#progress(message);
      case "crash":
        this.#crash = {
          message: message.message,
          ...(message.permission === undefined ? {} : { permission: message.permission }),
        };
        return;
      case "result": {
        const pending = this.#pending;
        if (pending === undefined || pending.id !== message.id) return;
        this.#pending = undefined;
        pending.log.addDropped(message.droppedLogBytes);
        if (!message.ok && message.invalid === true) {
          return pending.resolve({ kind: "invalid", text: message.message });
        }
        if (!message.ok && message.invalidOutput === true) {
          return pending.resolve({ kind: "invalid_output", text: message.message });
        }
        if (!message.ok) {
          const cap = this.#spec.memoryMb;
          if (cap !== undefined && ALLOCATION_FAILED.test(message.message)) {
            // An allocation the data limit refused: the process is at its cap. It is replaced,
            // and the call answered as the crash it is (the exit handler answers it).
            this.#crash = { message: `the tool exceeded its memory limit of ${cap} MiB` };
            this.#pending = pending;
            try {
              this.#child.kill("SIGKILL");
            } catch {
              // Already gone.
            }
            return;
          }
          return pending.resolve({
            kind: "thrown",
            message: message.message,
            ...(message.stack === undefined ? {} : { stack: message.stack }),
            ...(message.permission === undefined ? {} : { permission: message.permission }),
          });
        }
        if (message.tooLargeBytes !== undefined) {
          return pending.resolve({ kind: "too_large", bytes: message.tooLargeBytes });
        }
        if (message.content !== undefined) {
          return pending.resolve({ kind: "content", parts: message.content });
        }
        return pending.resolve({ kind: "value", text: message.text ?? "" });
      }
    }
  }

  /** A progress frame of the running call, checked like `ctx.progress`'s arguments; else ignored. */
  #progress(message: Extract<ChildMessage, { t: "progress" }>): void {
    const pending = this.#pending;
    if (pending?.progress === undefined || pending.id !== message.id) return;
    let update: ToolProgress;
    try {
      update = progressUpdate(message.progress, message.total, message.message);
    } catch {
      return; // A forged or damaged frame: nothing to record.
    }
    pending.progress(update);
  }

  #exitOutcome(status: ExitInfo): ProcessOutcome {
    const crash = this.#crash;
    if (crash !== undefined) {
      return {
        kind: "crashed",
        message: crash.message,
        ...(crash.permission === undefined ? {} : { permission: crash.permission }),
      };
    }
    const launch = this.#stderrTail.indexOf(LAUNCH_ERROR_PREFIX);
    if (status.code === LAUNCH_FAILED && launch >= 0) {
      const reason = this.#stderrTail.slice(launch + LAUNCH_ERROR_PREFIX.length).split("\n")[0];
      return { kind: "crashed", message: `the kernel sandbox could not be applied: ${reason}` };
    }
    if (/out of memory|heap limit|allocation failed/i.test(this.#stderrTail)) {
      const cap = this.#spec.memoryMb;
      const message = cap === undefined
        ? "the tool process ran out of memory"
        : `the tool exceeded its memory limit of ${cap} MiB`;
      return { kind: "crashed", message };
    }
    const how = status.signal !== null
      ? `was killed by ${status.signal}`
      : `exited with code ${status.code}`;
    return {
      kind: "crashed",
      message: `the tool process ${how}`,
      ...(status.signal === "SIGINT" ? { interrupted: true as const } : {}),
    };
  }
}
