/**
 * An MCP client transport over a child process's stdin/stdout, started like
 * every other child of the host (`spawnChild`: its own session and process
 * group, so a terminal's Ctrl-C reaches only the host) and reaped in steps on
 * close (close stdin, grace, SIGTERM to the group, grace, SIGKILL). Framing
 * is the SDK's own (`ReadBuffer`, `serializeMessage`); this file only moves
 * lines. The server's stderr is kept as a bounded tail for error messages.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "./_sdk.ts";
import { type ChildHandle, type ExitInfo, reapChild, spawnChild } from "../runtime/mod.ts";

/** How many bytes of the server's stderr are kept. */
export const STDERR_TAIL_BYTES = 2_048;

/** Options of {@link ChildStdioTransport}. */
export interface ChildStdioOptions {
  /** Executable (looked up on PATH). */
  readonly command: string;
  /** Its arguments. */
  readonly args: readonly string[];
  /** Added to the host's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory. */
  readonly cwd?: string;
  /** Wait after closing stdin, then after SIGTERM, ms; default 2000 each. */
  readonly graceMs?: number;
}

/** An MCP `Transport` to a spawned server process. */
export class ChildStdioTransport implements Transport {
  /** Called once when the connection ends (the process exited or `close()`). */
  onclose?: (() => void) | undefined;
  /** Called for a transport error (unreadable frame, write failure). */
  onerror?: ((error: Error) => void) | undefined;
  /** Called for each message from the server. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #options: ChildStdioOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildHandle | undefined;
  #writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  #stderr = new Uint8Array(0);
  #closing = false;
  #closed = false;
  #reaped: Promise<ExitInfo> | undefined;

  /** A transport that starts `options.command` on {@link start}. */
  constructor(options: ChildStdioOptions) {
    this.#options = options;
  }

  /** The process ID once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** The exit once the process ended, else undefined. */
  exit: ExitInfo | undefined;

  /** The last {@link STDERR_TAIL_BYTES} of the server's stderr, as text. */
  stderrTail(): string {
    return new TextDecoder().decode(this.#stderr).trim();
  }

  /** Spawn the server. Throws `SpawnError` when it cannot start. */
  start(): Promise<void> {
    if (this.#child !== undefined) throw new Error("ChildStdioTransport already started");
    const child = spawnChild(this.#options.command, this.#options.args, {
      stderr: "piped",
      ...(this.#options.env === undefined ? {} : { env: { ...this.#options.env } }),
      ...(this.#options.cwd === undefined ? {} : { cwd: this.#options.cwd }),
    });
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#writer.closed.catch(() => {}); // A write failure is reported by send().
    void this.#readStdout(child.stdout);
    if (child.stderr !== null) void this.#readStderr(child.stderr);
    child.exited.then((info) => {
      this.exit = info;
      this.#finish();
    });
    return Promise.resolve();
  }

  /** Send one message as a line. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#writer === undefined || this.#closed) throw new Error("Not connected");
    await this.#writer.write(new TextEncoder().encode(serializeMessage(message)));
  }

  /** Stop the server (close stdin, grace, SIGTERM, grace, SIGKILL) and wait until it exited. */
  async close(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    this.#closing = true;
    const grace = this.#options.graceMs ?? 2_000;
    this.#reaped ??= (async () => {
      await this.#writer?.close().catch(() => {});
      return await reapChild(child, { closeGraceMs: grace, termGraceMs: grace });
    })();
    this.exit = await this.#reaped;
    this.#finish();
  }

  /** Whether {@link close} was called (an exit after it is not a failure). */
  get closing(): boolean {
    return this.#closing;
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async #readStdout(stdout: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stdout) {
        this.#buffer.append(Buffer.from(chunk));
        while (true) {
          let message: JSONRPCMessage | null;
          try {
            message = this.#buffer.readMessage();
          } catch (error) {
            this.onerror?.(error instanceof Error ? error : new Error(String(error)));
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
          // The SDK runs notification handlers a microtask later but a response at once, and a
          // response drops its request's progress handler: let a notification (e.g. the last
          // progress) be handled before a response read in the same chunk.
          if (!("id" in message)) await Promise.resolve();
        }
      }
    } catch (error) {
      if (!this.#closing) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #readStderr(stderr: ReadableStream<Uint8Array>): Promise<void> {
    try {
      for await (const chunk of stderr) {
        const joined = new Uint8Array(this.#stderr.length + chunk.length);
        joined.set(this.#stderr);
        joined.set(chunk, this.#stderr.length);
        this.#stderr = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
      }
    } catch {
      // The process is gone; the tail so far is kept.
    }
  }
}
