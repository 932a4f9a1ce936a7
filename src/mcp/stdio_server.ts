/**
 * The MCP server side of stdio: messages in on the host's stdin, out through
 * the output guard's `writeStdout` (the only writer that reaches fd 1 while
 * `mcp` runs, so nothing but MCP frames appears on stdout). Framing is the
 * SDK's (`ReadBuffer`, `serializeMessage`).
 *
 * The end of stdin is the client's "shut down", and its calls lose their
 * requester, but a request it sent before that is still answered: the
 * transport waits {@link STDIN_END_GRACE_MS} for the requests it has read
 * and not yet answered (so `printf '{…"initialize"…}\n' | magi-tools mcp`
 * prints its answer, and a quick tool call too), then fires
 * {@link GuardedStdioTransport.inputEnded}, which cancels the calls still
 * running (the server answers them `Tool call cancelled`), and closes once
 * every request was answered, at most {@link STDIN_END_DRAIN_MS} after the end
 * of stdin (what is left then is cancelled unanswered when the server closes).
 * A request the client cancelled (`notifications/cancelled`) is never answered,
 * so it is not waited for.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "./_sdk.ts";

/** How long requests read before the end of stdin may run on before they are cancelled, ms. */
export const STDIN_END_GRACE_MS = 1_000;
/** How long after the end of stdin the transport waits for answers at most, ms. */
export const STDIN_END_DRAIN_MS = 10_000;

/** Options of {@link GuardedStdioTransport}. */
export interface GuardedStdioOptions {
  /** The host's stdin. */
  readonly input: AsyncIterable<Uint8Array>;
  /** Writes all of its bytes to the real stdout. */
  readonly write: (bytes: Uint8Array) => Promise<void>;
  /** After stdin ends, let unanswered requests run this long before cancelling them, ms; default {@link STDIN_END_GRACE_MS}. */
  readonly graceMs?: number;
  /** After stdin ends, wait at most this long for unanswered requests, ms; default {@link STDIN_END_DRAIN_MS}. */
  readonly drainMs?: number;
  /** Called when the drain limit passed with `count` requests still unanswered. */
  readonly onUnanswered?: (count: number) => void;
}

type RequestId = string | number;

/** The id of a request (a message with `method` and `id`), else undefined. */
function requestId(message: JSONRPCMessage): RequestId | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
}

/** The request a `notifications/cancelled` cancels, else undefined. */
function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** The id a response answers (a message with `id` and `result` or `error`), else undefined. */
function answeredId(message: JSONRPCMessage): RequestId | undefined {
  return "id" in message && ("result" in message || "error" in message) && !("method" in message)
    ? message.id
    : undefined;
}

/** An MCP server `Transport` over stdin and a guarded stdout. */
export class GuardedStdioTransport implements Transport {
  /** Called once when stdin ends or {@link close} is called. */
  onclose?: (() => void) | undefined;
  /** Called for an unreadable frame or a failed write. */
  onerror?: ((error: Error) => void) | undefined;
  /** Called for each message from the client. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #options: GuardedStdioOptions;
  readonly #buffer = new ReadBuffer();
  readonly #encoder = new TextEncoder();
  #writes: Promise<void> = Promise.resolve();
  #closed = false;
  /** Requests read and not yet answered. */
  readonly #pending = new Set<RequestId>();
  #drained: (() => void) | undefined;
  readonly #inputEnded = new AbortController();

  /** A transport over `options.input` and `options.write`. */
  constructor(options: GuardedStdioOptions) {
    this.#options = options;
  }

  /**
   * Fires {@link STDIN_END_GRACE_MS} after stdin ended while requests were still unanswered
   * (their requester is gone: the server cancels its calls).
   */
  get inputEnded(): AbortSignal {
    return this.#inputEnded.signal;
  }

  /** Start reading stdin. */
  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  /** Send one message (writes are kept in order). */
  send(message: JSONRPCMessage): Promise<void> {
    const answered = answeredId(message);
    if (answered !== undefined) this.#forget(answered);
    const bytes = this.#encoder.encode(serializeMessage(message));
    const write = this.#writes.then(() => this.#options.write(bytes));
    this.#writes = write.catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
    return write;
  }

  #forget(id: RequestId): void {
    if (this.#pending.delete(id) && this.#pending.size === 0) this.#drained?.();
  }

  /** Stop (after pending writes); stdin is left to the process. */
  async close(): Promise<void> {
    await this.#writes;
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  async #read(): Promise<void> {
    try {
      for await (const chunk of this.#options.input) {
        if (this.#closed) break;
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
          const id = requestId(message);
          if (id !== undefined) this.#pending.add(id);
          // A cancelled request is never answered: do not wait for it at the end of stdin.
          const cancelled = cancelledId(message);
          if (cancelled !== undefined) this.#forget(cancelled);
          this.onmessage?.(message);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    await this.#drain();
    await this.#writes;
    this.#finish();
  }

  /**
   * Wait until every request read was answered: `graceMs`, then cancel what still runs
   * ({@link inputEnded}) and wait for its answers, `drainMs` in all at most.
   */
  async #drain(): Promise<void> {
    if (this.#pending.size === 0 || this.#closed) return;
    const drainMs = this.#options.drainMs ?? STDIN_END_DRAIN_MS;
    const graceMs = Math.min(this.#options.graceMs ?? STDIN_END_GRACE_MS, drainMs);
    const timers: ReturnType<typeof setTimeout>[] = [];
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      timers.push(setTimeout(() => this.#inputEnded.abort(), graceMs));
      timers.push(setTimeout(resolve, drainMs));
    });
    for (const timer of timers) clearTimeout(timer);
    this.#drained = undefined;
    if (this.#pending.size > 0) this.#options.onUnanswered?.(this.#pending.size);
  }
}
