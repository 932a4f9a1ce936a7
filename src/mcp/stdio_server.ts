/**
 * The MCP server side of stdio: messages in on the host's stdin, out through
 * the output guard's `writeStdout` (the only writer that reaches fd 1 while
 * `mcp` runs, so nothing but MCP frames appears on stdout). Framing is the
 * SDK's (`ReadBuffer`, `serializeMessage`).
 *
 * The end of stdin is the client's "shut down", but a request it sent before
 * that is still answered: the transport closes once every request it has read
 * was answered, or after {@link STDIN_END_DRAIN_MS} (tool calls still running
 * then are cancelled when the server closes), so
 * `printf '{…"initialize"…}\n' | magi-tools mcp` prints its answer.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "./_sdk.ts";

/** How long requests read before the end of stdin may take to be answered, ms. */
export const STDIN_END_DRAIN_MS = 30_000;

/** Options of {@link GuardedStdioTransport}. */
export interface GuardedStdioOptions {
  /** The host's stdin. */
  readonly input: AsyncIterable<Uint8Array>;
  /** Writes all of its bytes to the real stdout. */
  readonly write: (bytes: Uint8Array) => Promise<void>;
  /** After stdin ends, wait at most this long for unanswered requests, ms; default {@link STDIN_END_DRAIN_MS}. */
  readonly drainMs?: number;
}

type RequestId = string | number;

/** The id of a request (a message with `method` and `id`), else undefined. */
function requestId(message: JSONRPCMessage): RequestId | undefined {
  return "method" in message && "id" in message ? message.id : undefined;
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

  /** A transport over `options.input` and `options.write`. */
  constructor(options: GuardedStdioOptions) {
    this.#options = options;
  }

  /** Start reading stdin. */
  start(): Promise<void> {
    void this.#read();
    return Promise.resolve();
  }

  /** Send one message (writes are kept in order). */
  send(message: JSONRPCMessage): Promise<void> {
    const answered = answeredId(message);
    if (answered !== undefined && this.#pending.delete(answered) && this.#pending.size === 0) {
      this.#drained?.();
    }
    const bytes = this.#encoder.encode(serializeMessage(message));
    const write = this.#writes.then(() => this.#options.write(bytes));
    this.#writes = write.catch((error: unknown) => {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    });
    return write;
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

  /** Wait until every request read was answered, at most `drainMs`. */
  async #drain(): Promise<void> {
    if (this.#pending.size === 0 || this.#closed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      this.#drained = resolve;
      timer = setTimeout(resolve, this.#options.drainMs ?? STDIN_END_DRAIN_MS);
    });
    clearTimeout(timer);
    this.#drained = undefined;
  }
}
