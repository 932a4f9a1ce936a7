/**
 * The MCP server side of stdio: messages in on the host's stdin, out through
 * the output guard's `writeStdout` (the only writer that reaches fd 1 while
 * `mcp` runs, so nothing but MCP frames appears on stdout). Framing is the
 * SDK's (`ReadBuffer`, `serializeMessage`).
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { type JSONRPCMessage, ReadBuffer, serializeMessage, type Transport } from "./_sdk.ts";

/** Options of {@link GuardedStdioTransport}. */
export interface GuardedStdioOptions {
  /** The host's stdin. */
  readonly input: AsyncIterable<Uint8Array>;
  /** Writes all of its bytes to the real stdout. */
  readonly write: (bytes: Uint8Array) => Promise<void>;
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
          this.onmessage?.(message);
        }
      }
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    await this.#writes;
    this.#finish();
  }
}
