/**
 * Redaction of an OpenAPI source's secret (the auth header's value from the
 * environment) from every text that comes back from the API.
 *
 * An API can echo a header in many spellings; each of these counts as the
 * secret and is replaced by `[redacted]`:
 * - the raw string;
 * - percent-encoded, each character or only some, hex digits in either case,
 *   `+` for a space (query strings, form bodies);
 * - JSON-escaped (`\u0041` in either case, `\/`, `\"`, `\\`), also mixed with
 *   the above;
 * - base64, standard and URL-safe, with or without padding, also inside a
 *   longer base64 text (the base64 of `Bearer <secret>` or of a JSON echo of
 *   the request): the characters that depend only on the secret at each of the
 *   three byte alignments, widened by the base64 character on either side that
 *   carries some of its bits (and the padding after it);
 * - when the secret is itself base64 of UTF-8 text (HTTP Basic: the value is
 *   `base64(user:password)`), that decoded text and its password part, in the
 *   spellings above.
 *
 * Redaction comes before any cut: {@link SecretRedactor.excerpt} redacts the
 * whole text it was given and only then cuts it, and treats the text as cut
 * short at {@link SecretRedactor.marginBytes} before its end when more of the
 * body was not read, so a secret straddling the cut is redacted whole and no
 * prefix of it survives.
 *
 * Not recognised: other encodings (HTML entities, double percent-encoding,
 * line-wrapped base64, hex), and a body that itself holds only part of the
 * secret.
 *
 * @module
 */

import { utf8ByteLength } from "../protocol/utf8.ts";
import { hasC0OrDel } from "../text/control.ts";
import { cutUtf8, utf8PrefixLength } from "../text/utf8.ts";

/** What a redacted secret is replaced by. */
export const REDACTED = "[redacted]";

/** Base64-derived forms shorter than this many characters are not redacted (too common). */
const MIN_BASE64_CHARS = 8;
/** A decoded Basic password shorter than this is not redacted on its own (too common). */
const MIN_PASSWORD_CHARS = 4;
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;

const encoder = new TextEncoder();

/** A regular-expression source and the longest text it can match, UTF-16 code units. */
interface Pattern {
  readonly source: string;
  readonly maxChars: number;
}

function unitEscape(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}

/** One hex digit in either case. */
function hexDigit(digit: string): string {
  return /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;
}

function hexPattern(value: number, width: number): string {
  return [...value.toString(16).padStart(width, "0")].map(hexDigit).join("");
}

const SHORT_JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  "\\": "\\\\\\\\",
  "/": "\\\\/",
  "\b": "\\\\b",
  "\f": "\\\\f",
  "\n": "\\\\n",
  "\r": "\\\\r",
  "\t": "\\\\t",
};

/** `text` in every spelling of one character at a time: raw, percent-encoded, JSON-escaped. */
function textPattern(text: string): Pattern {
  let source = "";
  let maxChars = 0;
  for (const char of text) {
    const units = [...Array(char.length).keys()].map((i) => char.charCodeAt(i));
    const bytes = encoder.encode(char);
    const alternatives = [
      units.map(unitEscape).join(""),
      [...bytes].map((byte) => `%${hexPattern(byte, 2)}`).join(""),
      units.map((unit) => `\\\\u${hexPattern(unit, 4)}`).join(""),
    ];
    const short = SHORT_JSON_ESCAPES[char];
    if (short !== undefined) alternatives.push(short);
    if (char === " ") alternatives.push("\\+");
    source += `(?:${alternatives.join("|")})`;
    maxChars += Math.max(char.length, 3 * bytes.length, 6 * char.length, 2);
  }
  return { source, maxChars };
}

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64(bytes: Uint8Array, urlSafe: boolean): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!, b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    const group = (a << 16) | (b << 8) | c;
    const chars = Math.ceil(((Math.min(3, bytes.length - i)) * 8) / 6);
    for (let j = 0; j < chars; j++) out += STANDARD[(group >> (18 - 6 * j)) & 63];
  }
  return urlSafe ? out.replaceAll("+", "-").replaceAll("/", "_") : out;
}

/**
 * The base64 characters that depend on `bytes` alone, when `bytes` start at
 * byte offset 0, 1 or 2 of a longer encoded text (standard and URL-safe).
 */
function base64Segments(bytes: Uint8Array): string[] {
  const found = new Set<string>();
  for (const urlSafe of [false, true]) {
    for (let offset = 0; offset < 3; offset++) {
      const padded = new Uint8Array(offset + bytes.length);
      padded.set(bytes, offset);
      const encoded = base64(padded, urlSafe);
      // Characters holding bits of the unknown bytes before and after are left to the widening.
      const start = Math.ceil((offset * 8) / 6);
      const end = Math.floor((padded.length * 8) / 6);
      const segment = encoded.slice(start, end);
      if (segment.length >= MIN_BASE64_CHARS) found.add(segment);
    }
  }
  return [...found];
}

/** `text` decoded as base64 (either alphabet, padding optional) into UTF-8 text, or undefined. */
function decodedBase64Text(text: string): string | undefined {
  if (text.length < MIN_BASE64_CHARS || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    // Binary data is not a password.
    return hasC0OrDel(decoded) ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/**
 * Finds one secret in a text in all the spellings listed in the module doc,
 * and replaces each by {@link REDACTED}.
 *
 * @example
 * ```ts
 * import { SecretRedactor } from "./redact.ts";
 * const redactor = new SecretRedactor("s3cr3t/token");
 * console.assert(redactor.redact("a s3cr3t/token b") === "a [redacted] b");
 * console.assert(redactor.redact("a s3cr3t%2Ftoken b") === "a [redacted] b");
 * console.assert(redactor.redact('{"v":"s3cr3t\\/token"}') === '{"v":"[redacted]"}');
 * console.assert(redactor.redact(btoa("Bearer s3cr3t/token")).length < 12);
 * ```
 */
export class SecretRedactor {
  readonly #pattern: RegExp | undefined;
  /**
   * At least the most UTF-8 bytes one match can span (every spelling but the
   * raw one is ASCII): read this much past a cut and no secret straddles it
   * unseen.
   */
  readonly marginBytes: number;

  /** A redactor for `secret`; one that redacts nothing when it is undefined or empty. */
  constructor(secret: string | undefined) {
    if (secret === undefined || secret === "") {
      this.marginBytes = 0;
      return;
    }
    const texts = [textPattern(secret)];
    const decoded = decodedBase64Text(secret);
    if (decoded !== undefined) {
      texts.push(textPattern(decoded));
      const password = decoded.slice(decoded.indexOf(":") + 1);
      if (decoded.includes(":") && password.length >= MIN_PASSWORD_CHARS) {
        texts.push(textPattern(password));
      }
    }
    const segments = base64Segments(encoder.encode(secret)).map(textPattern);
    const longestFirst = (a: Pattern, b: Pattern) => b.maxChars - a.maxChars;
    texts.sort(longestFirst);
    segments.sort(longestFirst);
    // Group 1: a base64 segment (widened afterwards); otherwise a text spelling.
    const base64Part = segments.length === 0 ? "" : `(${segments.map((p) => p.source).join("|")})|`;
    this.#pattern = new RegExp(base64Part + texts.map((p) => p.source).join("|"), "g");
    // One character before, one after and two of padding.
    const widening = 4;
    // Slack for a multi-byte character cut at the end of a read, decoded as U+FFFD (3 bytes).
    const slack = 8;
    this.marginBytes = slack + Math.max(
      ...texts.map((p) => p.maxChars),
      ...segments.map((p) => p.maxChars + widening),
    );
  }

  /** `text` with every spelling of the secret replaced by {@link REDACTED}. */
  redact(text: string): string {
    return this.#redactUpTo(text, text.length);
  }

  /**
   * `text` redacted, then cut to at most `maxBytes` UTF-8 bytes at a code
   * point boundary, with `…` when anything was cut. `complete` says whether
   * `text` is all there was: when it is not (a body read up to a bound), the
   * last {@link SecretRedactor.marginBytes} bytes count as cut off before
   * redaction, so a secret that started there and went on past the end of
   * `text` cannot leave a prefix behind.
   */
  excerpt(
    text: string,
    options: { readonly maxBytes: number; readonly complete: boolean },
  ): string {
    let limit = text.length;
    if (!options.complete) limit = utf8PrefixLength(text, utf8ByteLength(text) - this.marginBytes);
    const redacted = this.#redactUpTo(text, limit);
    const cut = cutUtf8(redacted, options.maxBytes);
    return cut === redacted && limit === text.length ? redacted : `${cut}…`;
  }

  /**
   * `text[0, limit)` redacted; a spelling that starts before `limit` is
   * redacted whole even when it ends after it.
   */
  #redactUpTo(text: string, limit: number): string {
    const pattern = this.#pattern;
    if (pattern === undefined) return text.slice(0, limit);
    let out = "";
    let from = 0;
    for (const match of text.matchAll(pattern)) {
      let start = match.index;
      if (start >= limit) break;
      let end = start + match[0].length;
      if (match[1] !== undefined) {
        // The neighbouring base64 characters hold some of the secret's bits too.
        if (start > from && BASE64_CHAR.test(text[start - 1]!)) start--;
        if (end < text.length && BASE64_CHAR.test(text[end]!)) end++;
        for (let n = 0; n < 2 && text[end] === "="; n++) end++;
      }
      if (start < from) {
        // Overlaps the previous redaction (its widening): one marker for both.
        from = Math.max(from, end);
        continue;
      }
      out += text.slice(from, start) + REDACTED;
      from = end;
    }
    if (from < limit) out += text.slice(from, limit);
    return out;
  }
}
