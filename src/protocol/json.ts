/**
 * Strict JSON parsing for protocol frames.
 *
 * `JSON.parse` accepts duplicate object keys (last one wins) and any nesting
 * its stack allows. A frame must instead hold exactly one JSON value with
 * unique keys in every object and at most {@link JSON_DEPTH} nested
 * containers. {@link parseStrictJson} enforces both with one structural scan
 * (string contents are skipped with `indexOf`) and then lets `JSON.parse`
 * check the syntax and build the value.
 *
 * @module
 */

import { JSON_DEPTH } from "./limits.ts";

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | {
  [key: string]: JsonValue;
};
/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };
/**
 * Result of {@link parseStrictJson}: the value, or the protocol error code of
 * the failure (`invalid_frame` for too deep nesting, `invalid_request` for a
 * syntax error or a duplicate key).
 */
export type JsonParseResult =
  | { ok: true; value: JsonValue }
  | { ok: false; code: "invalid_frame" | "invalid_request" };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
/** Above this many keys an object's key list gets a `Set`. */
const LINEAR_KEYS = 12;

const TOO_DEEP: JsonParseResult = Object.freeze({ ok: false, code: "invalid_frame" });
const INVALID: JsonParseResult = Object.freeze({ ok: false, code: "invalid_request" });

/**
 * Parse exactly one JSON value, rejecting duplicate keys and deep nesting.
 *
 * Order of checks: more than `maxDepth` nested containers (counted on the raw
 * text, outside string literals) → `invalid_frame`; then a duplicate key in
 * any object (keys compared after unescaping, so `"a"` and `"\u0061"` are
 * duplicates) or any syntax error → `invalid_request`. Whitespace (space, tab,
 * CR, LF) may surround the value. Lone surrogates in `\u` escapes are legal.
 * Never throws.
 *
 * @example
 * ```ts
 * import { parseStrictJson } from "./json.ts";
 * console.assert(parseStrictJson('{"a":1}').ok);
 * const dup = parseStrictJson('{"a":1,"\\u0061":2}');
 * console.assert(!dup.ok && dup.code === "invalid_request");
 * ```
 */
export function parseStrictJson(text: string, maxDepth: number = JSON_DEPTH): JsonParseResult {
  const scan = scanStructure(text, maxDepth);
  if (scan !== null) return scan;
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    return INVALID;
  }
}

/**
 * One pass over `text`: depth of containers and duplicate keys. Returns null
 * when both are fine (syntax is left to `JSON.parse`). Robust on arbitrary
 * text: on invalid JSON it may misjudge which strings are keys, but then
 * `JSON.parse` rejects the text with the same code anyway.
 */
function scanStructure(text: string, maxDepth: number): JsonParseResult | null {
  const length = text.length;
  // Per open container: is it an object; for objects, keys seen so far.
  const isObject: boolean[] = [];
  const keys: string[][] = [];
  const keySets: (Set<string> | null)[] = [];
  let depth = 0;
  let expectKey = false;
  let duplicate = false;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return INVALID;
      if (expectKey && !duplicate) {
        const key = keyText(text, i, end);
        if (key === null || !addKey(keys, keySets, depth - 1, key)) duplicate = true;
      }
      expectKey = false;
      i = end + 1;
      continue;
    }
    switch (c) {
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (depth >= maxDepth) return TOO_DEEP;
        isObject[depth] = c === OPEN_BRACE;
        if (c === OPEN_BRACE) {
          const list = keys[depth];
          if (list === undefined) keys[depth] = [];
          else list.length = 0;
          keySets[depth] = null;
        }
        depth++;
        expectKey = c === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (depth > 0) depth--;
        expectKey = false;
        break;
      case COMMA:
        expectKey = depth > 0 && isObject[depth - 1] === true;
        break;
      case COLON:
        expectKey = false;
        break;
    }
    i++;
  }
  return duplicate ? INVALID : null;
}

/** Index of the closing quote of the string literal opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    // The quote is escaped when an odd number of backslashes precede it.
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if (((q - 1 - b) & 1) === 0) return q;
    from = q + 1;
  }
}

/** The unescaped key of the literal `text[start..end]`, or null if it is malformed. */
function keyText(text: string, start: number, end: number): string | null {
  const raw = text.slice(start + 1, end);
  if (raw.indexOf("\\") < 0) return raw;
  try {
    return JSON.parse(text.slice(start, end + 1)) as string;
  } catch {
    return null;
  }
}

/** Record `key` for the object at `level`; false if it was already there. */
function addKey(
  keys: string[][],
  keySets: (Set<string> | null)[],
  level: number,
  key: string,
): boolean {
  const list = keys[level];
  if (list === undefined) return true; // unbalanced invalid text: JSON.parse rejects it
  const set = keySets[level];
  if (set) {
    if (set.has(key)) return false;
    set.add(key);
    return true;
  }
  for (let k = 0; k < list.length; k++) if (list[k] === key) return false;
  list.push(key);
  if (list.length > LINEAR_KEYS) keySets[level] = new Set(list);
  return true;
}
