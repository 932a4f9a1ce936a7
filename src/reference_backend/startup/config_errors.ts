/**
 * Human-readable reasons for a rejected scenario or settings file: the file,
 * the JSON path and the reason, on one line. The reference backend writes
 * that line to stderr before it answers `configuration_invalid` (the wire
 * error itself stays the bare code, as the protocol requires).
 *
 * @module
 */

import { type ParseError, printParseErrorCode } from "jsonc-parser";
import type { z } from "zod";

/**
 * A rejected configuration's reason as one stderr line, prefixed
 * `reference backend: configuration_invalid:`.
 */
export function configErrorLine(reason: string): string {
  return `reference backend: configuration_invalid: ${reason.replaceAll("\n", " ")}`;
}

/** Write a rejected configuration's reason to stderr as one line ({@link configErrorLine}). */
export function reportConfigError(reason: string): void {
  console.error(configErrorLine(reason));
}

/** A JSON path in `$.a[0].b` form. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let text = "$";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/** The first JSONC syntax error as `line L column C: <error>` (1-based). */
export function syntaxReason(text: string, errors: readonly ParseError[]): string {
  const first = errors[0];
  if (first === undefined) return "not valid JSONC";
  const before = text.slice(0, first.offset);
  const line = before.split("\n").length;
  const column = first.offset - before.lastIndexOf("\n");
  return `line ${line} column ${column}: ${printParseErrorCode(first.error)}`;
}

type Issue = z.core.$ZodIssue;

/**
 * The first issue of a zod error as `<JSON path>: <message>`. For a union
 * (e.g. a scenario step, which is one of several kinds) the branch that got
 * furthest into the value is followed, so the path names the field at fault
 * rather than the whole step.
 */
export function issueReason(issues: readonly Issue[]): string {
  const issue = issues[0];
  if (issue === undefined) return "$: invalid";
  return describe(issue, []);
}

function describe(issue: Issue, prefix: readonly PropertyKey[]): string {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const best = issue.errors.reduce((a, b) => depth(b) > depth(a) ? b : a);
    if (depth(best) < 0) {
      // Every branch has keys it does not know: the value is none of the kinds.
      const unknown = best.find((i) => i.code === "unrecognized_keys" && i.path.length === 0);
      const keys = unknown?.code === "unrecognized_keys" ? unknown.keys : [];
      return `${jsonPath(path)}: matches no known kind (unrecognized key(s): ${
        keys.map((key) => JSON.stringify(key)).join(", ")
      })`;
    }
    const deepest = best.reduce((a, b) => b.path.length > a.path.length ? b : a, best[0]!);
    if (deepest !== undefined) return describe(deepest, path);
    return `${jsonPath(path)}: ${issue.message}`;
  }
  return `${jsonPath(path)}: ${issue.message}`;
}

function depth(issues: readonly Issue[]): number {
  // Unknown keys mean the branch is the wrong kind: it counts as not matching at all.
  if (issues.some((issue) => issue.code === "unrecognized_keys" && issue.path.length === 0)) {
    return -1;
  }
  return Math.max(0, ...issues.map((issue) => issue.path.length));
}
