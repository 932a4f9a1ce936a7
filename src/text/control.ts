/**
 * The control-character classes the project matches, each named once: what a header value cannot
 * hold, what a name or a one-line text may not hold, what a terminal must not receive raw, and
 * which ASCII characters JSON escapes the long way. They differ on purpose (tab and line feed
 * kept or not, C1 included or not), so each class says which characters it holds.
 *
 * The regular expressions here carry no `g` flag, so `.test` holds no state; the `replace…`
 * functions use global copies of them.
 *
 * @module
 */

// deno-lint-ignore-file no-control-regex -- matching control characters is this module's point

/** Every control character: C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** {@link CONTROL} but tab (U+0009) and line feed (U+000A): text that may have lines. */
const CONTROL_EXCEPT_TAB_LF = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/**
 * C0 only (U+0000–U+001F): what JSON escapes in ASCII text besides `"` and `\\`. One range, which
 * V8 searches about four times faster than the same range with DEL added (bench/notes.md,
 * "Result part frames around their text").
 */
const C0 = /[\u0000-\u001f]/;
/** C0 and DEL, not C1 (U+0080–U+009F pass). */
const C0_OR_DEL = /[\u0000-\u001f\u007f]/;
/** {@link C0_OR_DEL} but tab and line feed. */
const C0_OR_DEL_EXCEPT_TAB_LF = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** CR, LF and NUL: what would end or split an HTTP header value. */
const HEADER_BREAK = /[\r\n\u0000]/;
/**
 * The ASCII characters `JSON.stringify` escapes as `\u00XX` (6 bytes): C0 controls without a
 * short escape, so not backspace, tab, LF, form feed or CR.
 */
const JSON_LONG_ESCAPE = /[\x00-\x07\x0b\x0e-\x1f]/;
/**
 * What must not reach a terminal raw: CRLF (one match, shown as one line break), C0 but tab and
 * LF, DEL, C1, and the bidirectional embeddings, overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069).
 */
const TERMINAL_UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const CONTROL_ALL = new RegExp(CONTROL.source, "g");
const CONTROL_EXCEPT_TAB_LF_ALL = new RegExp(CONTROL_EXCEPT_TAB_LF.source, "g");

/** A replacement: a fixed string, or a function of the matched text. */
export type Replacement = string | ((match: string) => string);

/** Whether `text` holds any control character (C0, DEL or C1). */
export function hasControl(text: string): boolean {
  return CONTROL.test(text);
}

/** Whether `text` holds a control character other than tab and line feed (C0, DEL or C1). */
export function hasControlExceptTabLf(text: string): boolean {
  return CONTROL_EXCEPT_TAB_LF.test(text);
}

/** Whether `text` holds a C0 control character (DEL and C1 allowed). */
export function hasC0(text: string): boolean {
  return C0.test(text);
}

/** Whether `text` holds a C0 control character or DEL (C1 allowed). */
export function hasC0OrDel(text: string): boolean {
  return C0_OR_DEL.test(text);
}

/** Whether `text` holds a C0 control character other than tab and line feed, or DEL (C1 allowed). */
export function hasC0OrDelExceptTabLf(text: string): boolean {
  return C0_OR_DEL_EXCEPT_TAB_LF.test(text);
}

/** Whether `text` holds CR, LF or NUL, which an HTTP header value cannot. */
export function hasHeaderBreak(text: string): boolean {
  return HEADER_BREAK.test(text);
}

/** Whether `text` holds an ASCII character that `JSON.stringify` escapes as `\u00XX`. */
export function hasJsonLongEscape(text: string): boolean {
  return JSON_LONG_ESCAPE.test(text);
}

/** `text` with every control character (C0, DEL, C1) replaced. */
export function replaceControl(text: string, replacement: Replacement): string {
  return typeof replacement === "string"
    ? text.replace(CONTROL_ALL, replacement)
    : text.replace(CONTROL_ALL, replacement);
}

/** `text` with every control character but tab and line feed replaced. */
export function replaceControlExceptTabLf(text: string, replacement: Replacement): string {
  return typeof replacement === "string"
    ? text.replace(CONTROL_EXCEPT_TAB_LF_ALL, replacement)
    : text.replace(CONTROL_EXCEPT_TAB_LF_ALL, replacement);
}

/** `text` with every CRLF and every character unsafe for a terminal (see above) replaced. */
export function replaceTerminalUnsafe(
  text: string,
  replacement: (match: string) => string,
): string {
  return text.replace(TERMINAL_UNSAFE, replacement);
}
