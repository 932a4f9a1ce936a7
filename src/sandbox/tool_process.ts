/**
 * One warm tool process: a `deno run` child with exactly the tool's
 * permissions, speaking the private channel of `channel.ts` (Deno only,
 * internal to the process runner). Its start is `tool_spawn.ts`, what its exit
 * answers `tool_exit.ts`, its spec and outcomes `tool_process_spec.ts`.
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
import { type ChildHandle, terminalText } from "../runtime/mod.ts";
import { exitOutcome } from "./tool_exit.ts";
import type { ProcessOutcome, ToolProcessSpec } from "./tool_process_spec.ts";
import { spawnToolProcess } from "./tool_spawn.ts";

export type { ProcessOutcome, ToolProcessSpec } from "./tool_process_spec.ts";

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
    this.#child = spawnToolProcess(spec);
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
      const outcome = exitOutcome(status, {
        crash: this.#crash,
        stderrTail: this.#stderrTail,
        memoryMb: this.#spec.memoryMb,
      });
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
}
