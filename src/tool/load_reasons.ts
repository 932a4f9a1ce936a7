/**
 * Why a tool module is not a tool, with the fix: shared by the host's
 * loader and the zero-permission describe child (which must stay lean).
 *
 * @module
 */

/** The reason for a module without a default export, with the fix. */
export const NO_DEFAULT_EXPORT =
  "no default export: a tool module must `export default defineTool({ ... })`";

/** The reason for a default export that is not a tool, with the fix. */
export const NOT_A_TOOL =
  "default export is not a defineTool() result: use `export default defineTool({ ... })`";

/** At most this many characters of an error's first line. */
const REASON_CHARS = 500;
/** At most this many characters of one line of a syntax error's code frame. */
const FRAME_LINE_CHARS = 200;

/**
 * Why importing a tool module failed, from the runtime's error: its first
 * line (`SyntaxError: Expression expected`), and for a syntax error, where:
 * `  at file:///…/broken.ts:6:22` and the offending line with its marker, as
 * Deno reports them (`6 |   run() { return 1 + ; },` / `  |   ~`). The
 * location names the module by URL; {@link withDisplayPath} swaps in the path
 * as the user gave it. Never a stack of the loader's own frames.
 *
 * @example
 * ```ts
 * import { importFailureReason } from "./load_reasons.ts";
 * const error = new TypeError(
 *   "SyntaxError: Expression expected\n  |\n6 |   x = 1 + ;\n  |           ~\n" +
 *     "    at file:///p/tools/a.ts:6:11",
 * );
 * console.assert(importFailureReason(error) ===
 *   "SyntaxError: Expression expected\n  at file:///p/tools/a.ts:6:11\n" +
 *     "  6 |   x = 1 + ;\n    |           ~");
 * ```
 */
export function importFailureReason(error: unknown): string {
  const text = error instanceof Error
    ? /^[A-Za-z]*Error: /.test(error.message) ? error.message : `${error.name}: ${error.message}`
    : String(error);
  const lines = text.split("\n");
  const first = lines[0] ?? "";
  const head = first.length > REASON_CHARS ? `${first.slice(0, REASON_CHARS)}…` : first;
  // Deno's syntax error: a code frame (`N | code`, `  | ~`) then `    at URL:LINE:COL`.
  const at = lines.findIndex((line) => /^\s+at \S+:\d+:\d+$/.test(line));
  if (at < 0) return head;
  const frame = lines.slice(1, at).filter((line) =>
    /^\s*\d*\s\|/.test(line) && /\S/.test(line.replace(/^\s*\|/, ""))
  );
  if (frame.length === 0 || frame.length > 4) return head;
  const location = lines[at]!.trim().slice(3);
  const numbers = frame.map((line) => line.slice(0, line.indexOf("|")).trim());
  const width = Math.max(...numbers.map((number) => number.length));
  const shown = frame.map((line, index) => {
    const aligned = `  ${numbers[index]!.padStart(width)} ${line.slice(line.indexOf("|"))}`;
    return aligned.length > FRAME_LINE_CHARS ? `${aligned.slice(0, FRAME_LINE_CHARS)}…` : aligned;
  });
  return [head, `  at ${location}`, ...shown].join("\n");
}

/**
 * `reason` with the location in the module's folder named as the user gave
 * the module (`tools/broken.ts:6:22` instead of `file:///…/tools/broken.ts:6:22`,
 * the same for a helper module beside it); another file by its absolute path.
 *
 * @example
 * ```ts
 * import { withDisplayPath } from "./load_reasons.ts";
 * const reason = "SyntaxError: x\n  at file:///p/tools/my%20lib.ts:1:2";
 * console.assert(withDisplayPath(reason, "file:///p/tools/a.ts", "tools/a.ts") ===
 *   "SyntaxError: x\n  at tools/my lib.ts:1:2");
 * ```
 */
export function withDisplayPath(reason: string, url: string, file: string): string {
  const urlDir = url.slice(0, url.lastIndexOf("/") + 1);
  const fileDir = file.slice(0, Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
  return reason.replace(/^( {2}at )(\S+)(:\d+:\d+)$/m, (whole, at: string, where: string, pos) => {
    try {
      if (where.startsWith(urlDir)) {
        return `${at}${fileDir}${decodeURIComponent(where.slice(urlDir.length))}${pos}`;
      }
      if (where.startsWith("file:///")) {
        return `${at}${decodeURIComponent(new URL(where).pathname)}${pos}`;
      }
      return whole;
    } catch {
      return whole;
    }
  });
}
