/**
 * Text helpers below the runtime: cutting and splitting by UTF-8 bytes (`utf8.ts`), the
 * control-character classes, each named once (`control.ts`), one scan of a text's bytes for what
 * JSON escapes in ASCII (`ascii_scan.ts`), UTF-8-bounded truncation and zod
 * issue lists for text the model reads (`bounded.ts`), and how text the host did not write
 * reaches a terminal (`terminal_text.ts`, shared by both runtime adapters). Imports nothing but
 * `src/protocol/`, so the reference backend may use it too.
 *
 * @module
 */

export { asciiClass, HAS_C0, HAS_QUOTE_OR_BACKSLASH, NOT_ASCII } from "./ascii_scan.ts";
export { formatIssues, type IssueLike, truncateText } from "./bounded.ts";
export {
  hasC0,
  hasC0OrDel,
  hasC0OrDelExceptTabLf,
  hasControl,
  hasControlExceptTabLf,
  hasHeaderBreak,
  hasJsonLongEscape,
  replaceControl,
  replaceControlExceptTabLf,
  type Replacement,
  replaceTerminalUnsafe,
} from "./control.ts";
export { terminalSafeJson, terminalText } from "./terminal_text.ts";
export { type CutOptions, cutUtf8, splitUtf8, utf8PrefixLength } from "./utf8.ts";
