/**
 * Bounded, model-readable text helpers: UTF-8-bounded truncation and zod issue lists, shared by
 * the executor and the tool sources (a call's argument preview is `src/call/records.ts`').
 *
 * @module
 */

import { cutUtf8 } from "./utf8.ts";

const ELLIPSIS = "…";
const MAX_ISSUES = 3;
const ISSUES_BYTES = 500;
const KEY_CHARS = 64;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes at a code-point boundary; a cut
 * text ends with "…" (counted in the bound), so a cut is never silent.
 */
export function truncateText(text: string, maxBytes: number): string {
  return cutUtf8(text.toWellFormed(), maxBytes, { ellipsis: ELLIPSIS });
}

/** A zod issue, structurally (zod 4 `$ZodIssue`). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The first few validation issues as `path: message; path: message`, bounded
 * to ~500 bytes. Paths come from the input, so each key is shortened; zod's
 * messages describe expectations, not the input.
 */
export function formatIssues(issues: readonly IssueLike[]): string {
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const message = issue.message.replace(/^Invalid input: /, "")
      // A missing key: zod says "expected string, received undefined".
      .replace(/^expected .*, received undefined$/, "required");
    return `${formatPath(issue.path)}: ${message}`;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : "";
  return truncateText(shown.join("; ") + more, ISSUES_BYTES);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(arguments)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else {
      const key = String(segment);
      out += (out === "" ? "" : ".") +
        (key.length > KEY_CHARS ? key.slice(0, KEY_CHARS) + ELLIPSIS : key);
    }
  }
  return out;
}
