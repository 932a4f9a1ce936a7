/**
 * Strict JSON parsing for protocol frames.
 *
 * `JSON.parse` accepts duplicate object keys (last one wins) and any nesting
 * its stack allows. A frame must instead hold exactly one JSON value with
 * unique keys in every object and at most {@link JSON_DEPTH} nested
 * containers. {@link parseStrictJson} lets `JSON.parse` check the syntax and
 * build the value, then one walk of the value checks the depth and compares
 * the parsed objects' key count with the number of key tokens in the text
 * (counted from the text's colons, or by a structural scan when the text has
 * `\u` escapes). Only a failed parse scans the text for its depth.
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
 * syntax error or a duplicate key) and which of the three it was. On
 * `duplicate_key` the text is otherwise valid JSON within the depth bound, so
 * {@link duplicateKeyPaths} can locate the duplicates.
 */
export type JsonParseResult =
  | { ok: true; value: JsonValue }
  | {
    ok: false;
    code: "invalid_frame" | "invalid_request";
    reason: "depth" | "syntax" | "duplicate_key";
  };

/** A location in a JSON value: object keys and array indexes from the root. */
export type JsonPath = (string | number)[];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const TOO_DEEP: JsonParseResult = Object.freeze({
  ok: false,
  code: "invalid_frame",
  reason: "depth",
});
const INVALID: JsonParseResult = Object.freeze({
  ok: false,
  code: "invalid_request",
  reason: "syntax",
});
const DUPLICATE: JsonParseResult = Object.freeze({
  ok: false,
  code: "invalid_request",
  reason: "duplicate_key",
});

/**
 * Parse exactly one JSON value, rejecting duplicate keys and deep nesting.
 *
 * Order of checks: more than `maxDepth` nested containers (counted on the raw
 * text, outside string literals) → `invalid_frame`; then any syntax error or a
 * duplicate key in any object (keys compared after unescaping, so `"a"` and
 * `"\u0061"` are duplicates) → `invalid_request`. Whitespace (space, tab, CR,
 * LF) may surround the value. Lone surrogates in `\u` escapes are legal.
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
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    // Depth is reported before syntax: only a failed parse pays for the scan.
    return scanStructure(text, maxDepth) === DEEP ? TOO_DEEP : INVALID;
  }
  if (typeof value !== "object" || value === null) return { ok: true, value };
  // JSON.parse keeps the last of duplicate keys, so the parsed objects hold
  // fewer keys than the text has key tokens exactly when a key is duplicated.
  // Every colon outside a string literal separates a key, and without `\u`
  // escapes every colon inside a literal is one colon of a parsed string:
  // then the text's colons equal parsed keys plus colons in parsed strings
  // exactly when no key is duplicated (a dropped member takes at least its
  // key's colon along). With `\u` escapes (`\u003a` is a colon) the exact
  // token scan counts the keys instead.
  const exactColons = text.indexOf("\\u") < 0;
  walkPolluted = !isPrototypeClean();
  walkKeys = 0;
  walkColons = 0;
  if (!walk(value, 1, maxDepth, exactColons)) return TOO_DEEP;
  const keyTokens = exactColons ? countColons(text) - walkColons : scanStructure(text, maxDepth);
  return keyTokens === walkKeys ? { ok: true, value } : DUPLICATE;
}

// Tallies of the last walk (walks are synchronous and never nest).
let walkKeys = 0;
let walkColons = 0;
let walkPolluted = false;

/** Whether `Object.prototype` has no enumerable keys, so `for…in` sees own keys only. */
function isPrototypeClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/**
 * Count the own keys of every object in `value` into `walkKeys` and, when
 * `colons`, the colons in its strings (keys and values) into `walkColons`.
 * `depth` is the nesting of `value` itself; false when it exceeds `maxDepth`
 * (the walk then stops, so recursion stays bounded).
 */
function walk(value: object, depth: number, maxDepth: number, colons: boolean): boolean {
  if (depth > maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object") {
        if (item !== null && !walk(item, depth + 1, maxDepth, colons)) return false;
      } else if (colons && typeof item === "string") walkColons += countColons(item);
    }
    return true;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    if (walkPolluted && !Object.hasOwn(object, key)) continue;
    walkKeys++;
    if (colons) walkColons += countColons(key);
    const item = object[key];
    if (typeof item === "object") {
      if (item !== null && !walk(item, depth + 1, maxDepth, colons)) return false;
    } else if (colons && typeof item === "string") walkColons += countColons(item);
  }
  return true;
}

/** Number of `:` in `text`. */
function countColons(text: string): number {
  let count = 0;
  let at = text.indexOf(":");
  while (at >= 0) {
    count++;
    at = text.indexOf(":", at + 1);
  }
  return count;
}

const DEEP = -1;
const UNTERMINATED = -2;

/**
 * One pass over `text`: nesting depth and the number of object-key string
 * tokens. Returns the key count, {@link DEEP} when nesting exceeds
 * `maxDepth`, or {@link UNTERMINATED} for an unterminated string. String
 * contents are skipped with `indexOf`. On invalid JSON the count may be off,
 * but `JSON.parse` then rejects the text anyway.
 */
function scanStructure(text: string, maxDepth: number): number {
  const length = text.length;
  // objects[d]: whether the open container at depth d is an object.
  const objects: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  let keys = 0;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end < 0) return UNTERMINATED;
      if (expectKey) {
        keys++;
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (depth >= maxDepth) return DEEP;
        objects[depth++] = c === OPEN_BRACE;
        expectKey = c === OPEN_BRACE;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (depth > 0) depth--;
        expectKey = false;
        break;
      case COMMA:
        expectKey = depth > 0 && objects[depth - 1] === true;
        break;
      case COLON:
        expectKey = false;
        break;
    }
    i++;
  }
  return keys;
}

/** Index of the closing quote of the string literal opening at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q < 0) return -1;
    if (text.charCodeAt(q - 1) !== BACKSLASH) return q;
    // The quote is escaped when an odd number of backslashes precede it.
    let b = q - 2;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if (((q - 1 - b) & 1) === 0) return q;
    from = q + 1;
  }
}

const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * The path of every duplicate key in `text`, in text order: the path of the
 * object holding it plus the key (a duplicate top-level key has a path of
 * length 1). Keys are compared after unescaping. This is the slow locating
 * pass, meant to run only after {@link parseStrictJson} reported
 * `duplicate_key` (valid JSON, depth already bounded); for other text the
 * result is unspecified, but it never throws and never recurses deeper than
 * `maxDepth`.
 *
 * @example
 * ```ts
 * import { duplicateKeyPaths } from "./json.ts";
 * const paths = duplicateKeyPaths('{"a":{"b":[{"c":1,"c":2}]}}');
 * console.assert(JSON.stringify(paths) === '[["a","b",0,"c"]]');
 * ```
 */
export function duplicateKeyPaths(text: string, maxDepth: number = JSON_DEPTH): JsonPath[] {
  const found: JsonPath[] = [];
  const path: JsonPath = [];
  let i = 0;
  const skipSpace = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== SPACE && c !== TAB && c !== LINE_FEED && c !== CARRIAGE_RETURN) return;
      i++;
    }
  };
  const readString = (): string => {
    if (text.charCodeAt(i) !== QUOTE) throw new SyntaxError("Expected a string");
    const end = stringEnd(text, i);
    if (end < 0) throw new SyntaxError("Unterminated string");
    const raw = text.slice(i, end + 1);
    i = end + 1;
    return JSON.parse(raw) as string;
  };
  const readValue = (depth: number): void => {
    skipSpace();
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth >= maxDepth) throw new RangeError("Too deep");
      i++;
      skipSpace();
      const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      if (text.charCodeAt(i) === close) {
        i++;
        return;
      }
      const seen = new Set<string>();
      for (let index = 0;; index++) {
        skipSpace();
        if (c === OPEN_BRACE) {
          const key = readString();
          path.push(key);
          if (seen.has(key)) found.push([...path]);
          else seen.add(key);
          skipSpace();
          if (text.charCodeAt(i++) !== COLON) throw new SyntaxError("Expected a colon");
        } else {
          path.push(index);
        }
        readValue(depth + 1);
        path.pop();
        skipSpace();
        if (text.charCodeAt(i++) !== COMMA) return;
      }
    }
    if (c === QUOTE) {
      readString();
      return;
    }
    // A literal or number: up to the next delimiter.
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (
        d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === SPACE || d === TAB ||
        d === LINE_FEED || d === CARRIAGE_RETURN
      ) break;
      i++;
    }
  };
  try {
    readValue(0);
  } catch {
    // Not valid JSON: the duplicates found so far.
  }
  return found;
}
