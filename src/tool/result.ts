/**
 * Tool results as text, and text as `client.tool.result` parts.
 *
 * A tool returns a string (sent as-is) or a JSON value (sent as JSON text).
 * The text is split into parts of at most `result_part_bytes` UTF-8 bytes,
 * each small enough that its frame, after JSON escaping, still fits the input
 * frame. Parts are cut only between code points.
 *
 * @module
 */

import { asciiClass, HAS_C0, NOT_ASCII } from "../text/ascii_scan.ts";
import { hasJsonLongEscape } from "../text/control.ts";

/**
 * The text the model sees for a tool's return value: a string as-is (lone
 * surrogates replaced by U+FFFD, which the wire cannot carry), `undefined` as
 * `""`, any other value as `JSON.stringify` text.
 *
 * @throws {TypeError} when the value has no faithful JSON form: a bigint,
 * function, symbol, non-finite number, `Map`/`Set` or a circular structure.
 *
 * @example
 * ```ts
 * import { resultToText } from "./result.ts";
 * console.assert(resultToText({ ok: true }) === '{"ok":true}');
 * console.assert(resultToText("plain") === "plain");
 * ```
 */
export function resultToText(value: unknown): string {
  if (typeof value === "string") return value.toWellFormed();
  if (value === undefined) return "";
  let text: string | undefined;
  try {
    text = JSON.stringify(value, checkSerializable);
  } catch (error) {
    if (error instanceof NotSerializable) throw new TypeError(error.message);
    const reason = error instanceof Error ? error.message.split("\n", 1)[0] : String(error);
    throw new TypeError(`Tool result is not JSON-serializable: ${reason}`);
  }
  if (text === undefined) throw new TypeError("Tool result is not JSON-serializable: no JSON form");
  return text.toWellFormed();
}

class NotSerializable extends Error {}

function checkSerializable(this: unknown, key: string, value: unknown): unknown {
  const where = key === "" ? "" : ` at key ${JSON.stringify(key.slice(0, 64))}`;
  const kind = typeof value;
  if (kind === "bigint" || kind === "function" || kind === "symbol") {
    throw new NotSerializable(`Tool result is not JSON-serializable: a ${kind}${where}`);
  }
  if (kind === "number" && !Number.isFinite(value)) {
    throw new NotSerializable(`Tool result is not JSON-serializable: ${value}${where}`);
  }
  if (value instanceof Map || value instanceof Set) {
    const name = value instanceof Map ? "Map" : "Set";
    throw new NotSerializable(`Tool result is not JSON-serializable: a ${name}${where}`);
  }
  return value;
}

/** Bounds for {@link splitResultText}. */
export interface SplitOptions {
  /** At most this many UTF-8 bytes of text per part (`result_part_bytes`). */
  partBytes: number;
  /** The frame bound the part's frame must fit in. */
  frameBytes: number;
  /**
   * Bytes of the part's frame with `"text":""`, measured the same way as
   * `frameBytes`. A part's JSON-escaped length (without quotes) plus this
   * must not exceed `frameBytes`.
   */
  envelopeBytes: number;
}

/**
 * Split `text` into parts that each hold at most `partBytes` UTF-8 bytes and
 * whose JSON-escaped length plus `envelopeBytes` is at most `frameBytes`.
 * Cuts fall only between code points; a lone surrogate is one unit that
 * escapes to 6 bytes. `""` gives `[""]`.
 *
 * @throws {RangeError} when the bounds cannot hold even one code point.
 *
 * @example
 * ```ts
 * import { splitResultText } from "./result.ts";
 * const parts = splitResultText("aaaaa", { partBytes: 4, frameBytes: 100, envelopeBytes: 10 });
 * console.assert(parts.length === 2 && parts[0] === "aaaa" && parts[1] === "a");
 * ```
 */
export function splitResultText(text: string, options: SplitOptions): string[] {
  return splitSizedResultText(text, options).parts;
}

/** What {@link splitSizedResultText} returns. */
export interface SizedSplit {
  /** The parts, as {@link splitResultText} returns them. */
  parts: string[];
  /** UTF-8 bytes of the whole text (a lone surrogate counts as U+FFFD, 3 bytes). */
  bytes: number;
  /**
   * Per part, whether it is plain ASCII: ASCII without C0 control characters, so its UTF-8 size
   * is its length and JSON escapes nothing in it but `"` and `\\` (its frame can be written around
   * it: `encodeFrameWithText`). Absent when the text took the per-character path.
   */
  plainAscii?: readonly boolean[];
}

/**
 * {@link splitResultText} and the text's UTF-8 size from the same single
 * pass (the size equals `utf8ByteLength(text)`): the result path needs both
 * and scanning a large result twice was a measurable share of its cost.
 *
 * @throws {RangeError} when the bounds cannot hold even one code point.
 *
 * @example
 * ```ts
 * import { splitSizedResultText } from "./result.ts";
 * const split = splitSizedResultText("aé", { partBytes: 4, frameBytes: 100, envelopeBytes: 10 });
 * console.assert(split.parts.length === 1 && split.bytes === 3);
 * ```
 */
export function splitSizedResultText(text: string, options: SplitOptions): SizedSplit {
  const { partBytes, frameBytes, envelopeBytes } = options;
  const escapedBudget = frameBytes - envelopeBytes;
  if (!(partBytes >= 4 && escapedBudget >= 6)) {
    throw new RangeError(
      `Result part bounds cannot hold one character: partBytes ${partBytes}, ${escapedBudget} bytes left in the frame`,
    );
  }
  // An all-ASCII text whose parts cannot reach the frame bound, even if each of their characters
  // takes the most bytes it can escaped, is cut every `partBytes` characters, as the loop below
  // would: each part's bytes are looked at once (`asciiClass`), which tells that it is ASCII and
  // whether it holds a C0 control (the plain parts have none) and, unless the budget allows six
  // bytes a character, a part that has one is searched for the controls that escape to six
  // (bench/notes.md, "The result split's ASCII path", "Result part frames around their text" and
  // "The result scan in WebAssembly").
  if (partBytes * ESCAPED_SHORT_MAX <= escapedBudget) {
    const parts = cutEvery(text, partBytes);
    const plainAscii = plainAsciiParts(parts, partBytes * ESCAPED_MAX <= escapedBudget);
    if (plainAscii !== null) return { parts, bytes: text.length, plainAscii };
  }
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  let escaped = 0;
  let total = 0;
  let i = 0;
  // Characters that are one byte both in UTF-8 and escaped are taken in runs
  // (found by the regex engine) instead of one by one: `plain` is where the
  // next other character is.
  let plain = -1;
  while (i < text.length) {
    if (plain < i) plain = nextSpecial(text, i);
    if (plain > i) {
      const room = Math.min(partBytes - bytes, escapedBudget - escaped);
      if (room <= 0) {
        parts.push(text.slice(start, i));
        start = i;
        bytes = 0;
        escaped = 0;
        continue;
      }
      const take = Math.min(room, plain - i);
      bytes += take;
      escaped += take;
      total += take;
      i += take;
      continue;
    }
    const unit = text.charCodeAt(i);
    let width = 1;
    let size: number;
    let escapedSize: number;
    if (unit < 0x80) {
      size = 1;
      escapedSize = asciiEscapedSize(unit);
    } else if (unit < 0x800) {
      size = escapedSize = 2;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        width = 2;
        size = escapedSize = 4;
      } else {
        // A lone surrogate: U+FFFD (3 bytes) in UTF-8, `\udxxx` in JSON.
        size = 3;
        escapedSize = 6;
      }
    } else {
      size = escapedSize = 3;
    }
    if (bytes + size > partBytes || escaped + escapedSize > escapedBudget) {
      parts.push(text.slice(start, i));
      start = i;
      bytes = 0;
      escaped = 0;
    }
    bytes += size;
    escaped += escapedSize;
    total += size;
    i += width;
  }
  parts.push(text.slice(start));
  return { parts, bytes: total };
}

/** The most bytes one ASCII character takes escaped in JSON (`\u00XX`). */
const ESCAPED_MAX = 6;
/** The most bytes one ASCII character takes escaped when {@link hasJsonLongEscape} finds none (`\"`, `\n`). */
const ESCAPED_SHORT_MAX = 2;
/**
 * Per part of an all-ASCII text, whether it holds no C0 control; null when a part is not ASCII,
 * and when a part holds a control that JSON escapes as `\u00XX` and `longFits` is false (six
 * bytes a character may not fit the frame): the per-character path then decides. One scan of
 * each part's bytes answers both (`asciiClass`).
 */
function plainAsciiParts(parts: readonly string[], longFits: boolean): boolean[] | null {
  const plain: boolean[] = [];
  for (const part of parts) {
    const found = asciiClass(part);
    if (found === NOT_ASCII) return null;
    const controls = (found & HAS_C0) !== 0;
    if (controls && !longFits && hasJsonLongEscape(part)) return null;
    plain.push(!controls);
  }
  return plain;
}

/** `text` in slices of `size` units (`[""]` for `""`). */
function cutEvery(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  for (let from = 0; from < text.length; from += size) parts.push(text.slice(from, from + size));
  return parts;
}

/** Any character that is not printable ASCII other than `"` and `\\`. */
const SPECIAL = /[^\x20\x21\x23-\x5b\x5d-\x7e]/g;

/** Index of the first character at or after `from` that {@link SPECIAL} matches, else the length. */
function nextSpecial(text: string, from: number): number {
  SPECIAL.lastIndex = from;
  return SPECIAL.exec(text)?.index ?? text.length;
}

/** Bytes `JSON.stringify` uses for one ASCII character inside a string. */
function asciiEscapedSize(unit: number): number {
  if (unit === 0x22 || unit === 0x5c) return 2; // \" \\
  if (unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) return 2;
  if (unit < 0x20) return 6; // \u00XX
  return 1;
}
