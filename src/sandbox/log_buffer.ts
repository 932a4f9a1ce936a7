/**
 * A bounded buffer of one call's tool output (internal), optionally streamed: with a
 * {@link LogStreamOptions.deliver}, output is handed on while the call runs, coalesced into
 * one {@link ToolLog} per {@link LOG_FLUSH_MS} window (the first output of a window waits at
 * most that long), and whatever is left, with the truncation marker, when the call ends. The
 * byte bound is per call, as without streaming: at most {@link LOG_BYTES} of text over all of
 * a call's logs.
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { utf8ByteLength } from "../protocol/utf8.ts";
import { cutUtf8 } from "../text/utf8.ts";
import { LOG_BYTES } from "./channel.ts";

/** A streamed call's output is handed on at most once per this many ms (and at its end). */
export const LOG_FLUSH_MS = 200;

/** Where and for which call a {@link LogBuffer} streams its output. */
export interface LogStreamOptions {
  /** Receives each coalesced piece of output, in order. */
  readonly deliver: (log: ToolLog) => void;
  /** The call. */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** The flush timer's clock; default the real one. */
  readonly clock?: Clock;
}

/** One call's captured tool output (or, streamed, one piece of it), as handed to `onLog`. */
export interface ToolLog {
  /** The call the output belongs to. */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** Captured text, at most 64 KiB plus the marker `[… N bytes truncated]` when cut. */
  readonly text: string;
  /** UTF-8 bytes of tool output this log covers (kept plus truncated). */
  readonly bytes: number;
  /** UTF-8 bytes of them left out of `text`. */
  readonly truncatedBytes: number;
}

/** Keeps the first `limit` bytes of text; counts the rest. */
export class LogBuffer {
  readonly #limit: number;
  #chunks: string[] = [];
  #kept = 0;
  #dropped = 0;
  readonly #stream: LogStreamOptions | undefined;
  /** Streamed: chunks and bytes not handed on yet. */
  #pending: string[] = [];
  #pendingKept = 0;
  #pendingDropped = 0;
  #timer: TimerId | undefined;
  #finished = false;

  /**
   * A buffer of at most `limit` UTF-8 bytes (default 64 KiB); with `stream`, its output is
   * handed on as it comes (call {@link LogBuffer.finish} when the call ended).
   */
  constructor(limit: number = LOG_BYTES, stream?: LogStreamOptions) {
    this.#limit = limit;
    this.#stream = stream;
  }

  /** Append text; whatever does not fit is counted, cut at a code-point boundary. */
  append(text: string): void {
    const bytes = utf8ByteLength(text);
    if (this.#kept + bytes <= this.#limit) {
      this.#keep(text, bytes);
      return;
    }
    const kept = cutUtf8(text, this.#limit - this.#kept);
    const keptBytes = utf8ByteLength(kept);
    if (kept !== "") this.#keep(kept, keptBytes);
    this.#drop(bytes - keptBytes);
  }

  /** Count bytes dropped elsewhere (by the tool process itself). */
  addDropped(bytes: number): void {
    if (Number.isFinite(bytes) && bytes > 0) this.#drop(bytes);
  }

  /**
   * Streamed: hand on what is left, with the truncation marker when output was cut, and
   * stop streaming. Harmless without a stream or when called again.
   */
  finish(): void {
    if (this.#stream === undefined || this.#finished) return;
    this.#flush(true);
    this.#finished = true;
  }

  #keep(text: string, bytes: number): void {
    if (this.#stream !== undefined && !this.#finished) {
      this.#pending.push(text);
      this.#pendingKept += bytes;
      this.#arm();
    } else this.#chunks.push(text);
    this.#kept += bytes;
  }

  #drop(bytes: number): void {
    this.#dropped += bytes;
    if (this.#stream !== undefined && !this.#finished) this.#pendingDropped += bytes;
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    const clock = this.#stream!.clock ?? REAL_CLOCK;
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      if (!this.#finished) this.#flush(false);
    }, LOG_FLUSH_MS);
  }

  #flush(last: boolean): void {
    const stream = this.#stream!;
    (stream.clock ?? REAL_CLOCK).clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = this.#pending.join("");
    const dropped = this.#pendingDropped;
    if (text === "" && (!last || this.#dropped === 0)) return;
    const marker = last && this.#dropped > 0 ? LogBuffer.#marker(text, this.#dropped) : "";
    const log = Object.freeze({
      callId: stream.callId,
      name: stream.name,
      text: text + marker,
      bytes: this.#pendingKept + dropped,
      truncatedBytes: dropped,
    });
    this.#pending = [];
    this.#pendingKept = 0;
    this.#pendingDropped = 0;
    stream.deliver(log);
  }

  static #marker(text: string, dropped: number): string {
    return `${text === "" || text.endsWith("\n") ? "" : "\n"}[… ${dropped} bytes truncated]`;
  }

  /** Whether nothing was written. */
  get empty(): boolean {
    return this.#kept === 0 && this.#dropped === 0;
  }

  /** The log record for `callId`. */
  toLog(callId: string, name: string): ToolLog {
    const text = this.#chunks.join("");
    const marker = this.#dropped > 0 ? LogBuffer.#marker(text, this.#dropped) : "";
    return Object.freeze({
      callId,
      name,
      text: text + marker,
      bytes: this.#kept + this.#dropped,
      truncatedBytes: this.#dropped,
    });
  }
}
