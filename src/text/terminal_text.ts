/**
 * Text that did not come from the host, made safe for a terminal: the one
 * place that decides how a tool result, a tool log line, an error message,
 * the model's text or a tool name reaches a person's screen.
 *
 * A terminal acts on control characters: ESC (`\x1b`) starts sequences that
 * set the window title (OSC 0), write the clipboard (OSC 52), make links
 * (OSC 8) or clear the screen (`ESC[2J`); U+009B is the one-character C1
 * form of CSI, which many terminals also act on in UTF-8; a lone CR moves the
 * cursor back over text already printed. {@link terminalText} shows every
 * C0 and C1 control and DEL as visible text instead (`\x1b`, `\u009b`,
 * `\r`), except LF and tab, which keep their meaning; CR directly before LF
 * is shown as the line break it ends (Windows line ends), since it cannot
 * overwrite anything there. The Unicode bidirectional embeddings, overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069), which reorder what a line
 * shows ("Trojan Source": a call's arguments in an approval prompt must read
 * as they are), are shown the same way (`\u202e`). Everything else
 * (non-ASCII text, emoji, U+2028, backslashes) is unchanged.
 *
 * {@link terminalSafeJson} is `JSON.stringify` for JSON lines that may land
 * on a terminal (NDJSON on stdout): `JSON.stringify` escapes C0 controls but
 * not DEL or C1 (U+007F–U+009F), so those become `\u007f`…`\u009f` — the same
 * JSON value, with no raw control left in the line.
 *
 * Used by the runtime policy (`writeStderrLine` applies it to every line)
 * and every terminal writer of the CLI.
 *
 * @module
 */

import { hasControl, replaceTerminalUnsafe } from "./control.ts";

// DEL and C1, which JSON.stringify leaves raw.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, "0");
}

function visible(match: string): string {
  if (match === "\r\n") return "\n";
  if (match === "\r") return "\\r";
  const code = match.charCodeAt(0);
  return code < 0x80 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

/**
 * `text` with every C0/C1 control character and DEL shown visibly (`\x1b`,
 * `\u009b`, a lone CR as `\r`); LF, tab and CR LF (shown as LF) keep their
 * meaning.
 *
 * @example
 * ```ts
 * import { terminalText } from "./terminal_text.ts";
 * console.assert(terminalText("\x1b]52;c;aGk=\x07") === "\\x1b]52;c;aGk=\\x07");
 * console.assert(terminalText("\u009b2J") === "\\u009b2J");
 * console.assert(terminalText("ok\rforged") === "ok\\rforged");
 * console.assert(terminalText("a\tb\r\nc\nÄ ✓") === "a\tb\nc\nÄ ✓");
 * console.assert(terminalText("ok\u202egnp.exe") === "ok\\u202egnp.exe");
 * ```
 */
export function terminalText(text: string): string {
  return replaceTerminalUnsafe(text, visible);
}

/**
 * `JSON.stringify(value)` with DEL and the C1 controls escaped too
 * (`\u009b`), so the line holds no raw control character; it parses to the
 * same value.
 *
 * @example
 * ```ts
 * import { terminalSafeJson } from "./terminal_text.ts";
 * const line = terminalSafeJson({ text: "\u009b2J\x1b" });
 * console.assert(line === '{"text":"\\u009b2J\\u001b"}');
 * console.assert(JSON.parse(line).text === "\u009b2J\x1b");
 * ```
 */
export function terminalSafeJson(value: unknown): string {
  const json = JSON.stringify(value);
  // JSON holds no raw C0 control, so any control found is DEL or C1. Most lines hold none, and
  // a test is cheaper than a replace that finds nothing.
  if (!hasControl(json)) return json;
  return json.replace(RAW_IN_JSON, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}
