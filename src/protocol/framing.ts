/**
 * NDJSON framing: bytes ↔ LF-terminated UTF-8 frames, byte-exact.
 *
 * Input rules (`local-agent-protocol.md`, "Frames" and "Bounds"): a frame is
 * at most `maxFrameBytes` bytes excluding its LF; a CR before the LF counts
 * toward that limit and stays in the text (it is JSON whitespace); an empty
 * line is `invalid_frame`; invalid UTF-8 is `invalid_request`; the byte after
 * `maxFrameBytes` without an LF is `frame_too_large`, after which the decoder
 * closes; EOF with a partial frame is `incomplete_frame` and the partial frame
 * is never delivered. The decoder does not parse JSON.
 *
 * @module
 */

import { INPUT_FRAME_BYTES, OUTPUT_FRAME_BYTES } from "./limits.ts";
import { decodeUtf8Strict, utf8ByteLength } from "./utf8.ts";

/** Error codes a {@link FrameDecoder} reports. */
export type FrameErrorCode =
  | "invalid_frame"
  | "invalid_request"
  | "frame_too_large"
  | "incomplete_frame";

/**
 * One decoded line: a frame's text (without LF, CR kept) and its byte length
 * excluding LF, or an error. `fatal` errors close the decoder.
 */
export type FrameItem =
  | { kind: "frame"; text: string; bytes: number }
  | { kind: "error"; code: FrameErrorCode; fatal: boolean };

const LF = 0x0a;

/** A frame that is larger than its limit; frames are never cut. */
export class FrameTooLargeError extends RangeError {
  /** Size of the frame in bytes, as measured against the limit. */
  readonly bytes: number;
  /** The limit in bytes. */
  readonly limit: number;
  /** Create the error for a frame of `bytes` bytes against `limit`. */
  constructor(bytes: number, limit: number) {
    super(`Frame too large: ${bytes} bytes, limit ${limit}`);
    this.name = "FrameTooLargeError";
    this.bytes = bytes;
    this.limit = limit;
  }
}

/** Options of {@link FrameDecoder}. */
export interface FrameDecoderOptions {
  /** Maximum frame bytes excluding LF (CR included); default `INPUT_FRAME_BYTES`. */
  maxFrameBytes?: number;
}

/**
 * Splits a byte stream into frames. Gives the same items for any chunking of
 * the same bytes, and never holds more than one partial frame
 * (`bufferedBytes <= maxFrameBytes`).
 *
 * @example
 * ```ts
 * import { FrameDecoder } from "./framing.ts";
 * const decoder = new FrameDecoder();
 * const bytes = new TextEncoder().encode('{"a":1}\n\n{"b"');
 * const items = [...decoder.push(bytes), ...decoder.end()];
 * console.assert(items[0]?.kind === "frame");
 * console.assert(items[1]?.kind === "error" && items[1].code === "invalid_frame");
 * console.assert(items[2]?.kind === "error" && items[2].code === "incomplete_frame");
 * ```
 */
export class FrameDecoder {
  #max: number;
  #buffer: Uint8Array;
  #length = 0;
  #closed = false;

  /** Create a decoder; `maxFrameBytes` defaults to `INPUT_FRAME_BYTES`. */
  constructor(options: FrameDecoderOptions = {}) {
    const max = options.maxFrameBytes ?? INPUT_FRAME_BYTES;
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`Frame limit must be a positive integer: ${max}`);
    }
    this.#max = max;
    this.#buffer = new Uint8Array(0);
  }

  /** True after a fatal error (`frame_too_large`) or {@link FrameDecoder.end}. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Bytes of the current partial frame. */
  get bufferedBytes(): number {
    return this.#length;
  }

  /** Feed bytes; returns the items completed by them (none once closed). */
  push(chunk: Uint8Array): FrameItem[] {
    const items: FrameItem[] = [];
    if (this.#closed) return items;
    let start = 0;
    const size = chunk.length;
    while (start < size) {
      const lf = chunk.indexOf(LF, start);
      const segmentEnd = lf < 0 ? size : lf;
      const segment = segmentEnd - start;
      if (this.#length + segment > this.#max) {
        this.#fail(items);
        return items;
      }
      if (lf < 0) {
        this.#append(chunk.subarray(start, size));
        break;
      }
      if (this.#length === 0) {
        items.push(this.#decode(chunk.subarray(start, lf)));
      } else {
        this.#append(chunk.subarray(start, lf));
        items.push(this.#decode(this.#buffer.subarray(0, this.#length)));
        this.#length = 0;
      }
      start = lf + 1;
    }
    return items;
  }

  /** Signal EOF: a partial frame becomes `incomplete_frame`. Closes the decoder. */
  end(): FrameItem[] {
    if (this.#closed) return [];
    this.#closed = true;
    const partial = this.#length > 0;
    this.#release();
    return partial ? [{ kind: "error", code: "incomplete_frame", fatal: false }] : [];
  }

  #fail(items: FrameItem[]): void {
    items.push({ kind: "error", code: "frame_too_large", fatal: true });
    this.#closed = true;
    this.#release();
  }

  #release(): void {
    this.#length = 0;
    this.#buffer = new Uint8Array(0);
  }

  #append(bytes: Uint8Array): void {
    const needed = this.#length + bytes.length;
    if (needed > this.#buffer.length) {
      // Grow geometrically but never beyond one frame.
      const grown = new Uint8Array(Math.min(this.#max, Math.max(needed, this.#buffer.length * 2)));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#length);
    this.#length = needed;
  }

  #decode(line: Uint8Array): FrameItem {
    if (line.length === 0) return { kind: "error", code: "invalid_frame", fatal: false };
    try {
      return { kind: "frame", text: decodeUtf8Strict(line, true), bytes: line.length };
    } catch {
      return { kind: "error", code: "invalid_request", fatal: false };
    }
  }
}

const encoder = new TextEncoder();

/**
 * Serialize `value` as one frame: JSON plus LF. Throws
 * {@link FrameTooLargeError} when the frame including LF exceeds `maxBytes`
 * (default `OUTPUT_FRAME_BYTES`), and `TypeError` when `value` has no JSON form
 * (`undefined`, a function, a cycle, a bigint). Never cuts a frame.
 *
 * @example
 * ```ts
 * import { encodeFrame } from "./framing.ts";
 * const bytes = encodeFrame({ a: 1 });
 * console.assert(new TextDecoder().decode(bytes) === '{"a":1}\n');
 * ```
 */
export function encodeFrame(value: unknown, maxBytes: number = OUTPUT_FRAME_BYTES): Uint8Array {
  const text = stringify(value) + "\n";
  // UTF-8 never has fewer bytes than UTF-16 units: a text too long in units is
  // rejected without encoding it; otherwise one native pass encodes and measures.
  if (text.length > maxBytes) throw new FrameTooLargeError(utf8ByteLength(text), maxBytes);
  const bytes = encoder.encode(text);
  if (bytes.length > maxBytes) throw new FrameTooLargeError(bytes.length, maxBytes);
  return bytes;
}

/** Where {@link encodeFrameWithText} puts the text: the member `"text":""` of its value. */
const TEXT_SLOT = '"text":""';
/** Characters of {@link TEXT_SLOT} up to and including the string's opening quote. */
const TEXT_OPEN = TEXT_SLOT.length - 1;

/**
 * The bytes {@link encodeFrame} gives for `value` with its member `text` set to `text`, built
 * around `text` instead of serializing it: no escaping pass over a long text, which was most of a
 * large result part's frame work (bench/notes.md, "Result part frames around their text").
 * `value` holds the member as `text: ""`, exactly once in its JSON. Returns null, for the caller
 * to use {@link encodeFrame}, when JSON would not write `text` as it is (it is not all ASCII or
 * holds `"` or `\\`), when `value` does not hold the member once, and when the frame including LF
 * would exceed `maxBytes`. `text` must hold no control character, which this does not search
 * for: the caller knows it from a search it made anyway (the result split's). `allocate` gives
 * memory for the frame, which this fills entirely, so it need not be zeroed (a `FrameArena`'s
 * `take`, so consecutive frames lie side by side).
 * Throws as `JSON.stringify` does for `value`.
 *
 * @example
 * ```ts
 * import { encodeFrame, encodeFrameWithText } from "./framing.ts";
 * const bytes = encodeFrameWithText({ a: 1, text: "", b: true }, "hello");
 * console.assert(new TextDecoder().decode(bytes!) === '{"a":1,"text":"hello","b":true}\n');
 * console.assert(encodeFrameWithText({ text: "" }, 'say "hi"') === null);
 * ```
 */
export function encodeFrameWithText(
  value: unknown,
  text: string,
  maxBytes: number = OUTPUT_FRAME_BYTES,
  allocate: (size: number) => Uint8Array = newBytes,
): Uint8Array | null {
  if (text.includes('"') || text.includes("\\")) return null;
  const json = stringify(value);
  const at = json.indexOf(TEXT_SLOT);
  // A member starts after `{` or `,`; anywhere else the slot would be inside a string.
  const before = json[at - 1];
  if ((before !== "{" && before !== ",") || json.includes(TEXT_SLOT, at + 1)) return null;
  const headEnd = at + TEXT_OPEN;
  if (NON_ASCII.test(json)) return aroundWithEnvelopeBytes(json, headEnd, text, maxBytes, allocate);
  // An ASCII envelope: all three pieces go straight into the frame's bytes, one byte a unit
  // (checked for `text`, which is meant to be ASCII).
  const size = json.length + 1 + text.length;
  if (size > maxBytes) return null;
  const bytes = allocate(size);
  const textEnd = headEnd + text.length;
  encoder.encodeInto(json.slice(0, headEnd), bytes.subarray(0, headEnd));
  if (!encodesOneByteEach(text, bytes.subarray(headEnd, textEnd))) return null;
  encoder.encodeInto(json.slice(headEnd), bytes.subarray(textEnd, size - 1));
  bytes[size - 1] = LF;
  return bytes;
}

/** Any unit above U+007F (surrogate halves included). */
const NON_ASCII = /[\u0080-\uffff]/;

/** {@link encodeFrameWithText}'s frame when the envelope's JSON (`json`) is not all ASCII. */
function aroundWithEnvelopeBytes(
  json: string,
  headEnd: number,
  text: string,
  maxBytes: number,
  allocate: (size: number) => Uint8Array,
): Uint8Array | null {
  const head = encoder.encode(json.slice(0, headEnd));
  const tail = encoder.encode(json.slice(headEnd) + "\n");
  const size = head.length + text.length + tail.length;
  if (size > maxBytes) return null;
  const bytes = allocate(size);
  bytes.set(head);
  if (!encodesOneByteEach(text, bytes.subarray(head.length, size - tail.length))) return null;
  bytes.set(tail, head.length + text.length);
  return bytes;
}

/** Whether `text` encoded into `into` (of its length) took one byte a unit, filling it. */
function encodesOneByteEach(text: string, into: Uint8Array): boolean {
  const { read, written } = encoder.encodeInto(text, into);
  return read === text.length && written === text.length;
}

function newBytes(size: number): Uint8Array {
  return new Uint8Array(size);
}

/** Bytes of `value` as a frame, including LF (see {@link encodeFrame}). */
export function encodedFrameBytes(value: unknown): number {
  return utf8ByteLength(stringify(value)) + 1;
}

function stringify(value: unknown): string {
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) throw new TypeError("Value has no JSON form");
  return text;
}
