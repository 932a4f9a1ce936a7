/**
 * A bounded buffer of one call's tool output (internal).
 *
 * @module
 */

import { utf8ByteLength } from "../../protocol/utf8.ts";
import { LOG_BYTES } from "./channel.ts";

/** One call's captured tool output, as handed to `onLog`. */
export interface ToolLog {
  /** The call the output belongs to. */
  readonly callId: string;
  /** The tool's name. */
  readonly name: string;
  /** Captured text, at most 64 KiB plus the marker `[… N bytes truncated]` when cut. */
  readonly text: string;
  /** UTF-8 bytes the tool wrote in total (kept plus truncated). */
  readonly bytes: number;
  /** UTF-8 bytes left out of `text`. */
  readonly truncatedBytes: number;
}

/** Keeps the first `limit` bytes of text; counts the rest. */
export class LogBuffer {
  readonly #limit: number;
  #chunks: string[] = [];
  #kept = 0;
  #dropped = 0;

  /** A buffer of at most `limit` UTF-8 bytes (default 64 KiB). */
  constructor(limit: number = LOG_BYTES) {
    this.#limit = limit;
  }

  /** Append text; whatever does not fit is counted, cut at a code-point boundary. */
  append(text: string): void {
    const bytes = utf8ByteLength(text);
    if (this.#kept + bytes <= this.#limit) {
      this.#chunks.push(text);
      this.#kept += bytes;
      return;
    }
    let room = this.#limit - this.#kept;
    let end = 0;
    for (const char of text) {
      const size = utf8ByteLength(char);
      if (size > room) break;
      room -= size;
      end += char.length;
    }
    const kept = text.slice(0, end);
    if (kept !== "") this.#chunks.push(kept);
    const keptBytes = utf8ByteLength(kept);
    this.#kept += keptBytes;
    this.#dropped += bytes - keptBytes;
  }

  /** Count bytes dropped elsewhere (by the tool process itself). */
  addDropped(bytes: number): void {
    if (Number.isFinite(bytes) && bytes > 0) this.#dropped += bytes;
  }

  /** Whether nothing was written. */
  get empty(): boolean {
    return this.#kept === 0 && this.#dropped === 0;
  }

  /** The log record for `callId`. */
  toLog(callId: string, name: string): ToolLog {
    const text = this.#chunks.join("");
    const marker = this.#dropped > 0
      ? `${text === "" || text.endsWith("\n") ? "" : "\n"}[… ${this.#dropped} bytes truncated]`
      : "";
    return Object.freeze({
      callId,
      name,
      text: text + marker,
      bytes: this.#kept + this.#dropped,
      truncatedBytes: this.#dropped,
    });
  }
}
