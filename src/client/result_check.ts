/**
 * Validation of backend output against the protocol's strict schemas, as the
 * client needs it: results tolerate unknown additional fields (base protocol:
 * "unknown additional result fields may be ignored"), event data stays exact,
 * and a failure is described by the first zod issue's path and code in a
 * bounded phrase that never echoes a value.
 *
 * @module
 */

import type { z } from "zod";

/** A validated value, or a short description of why it is invalid. */
export type CheckResult<T> = { ok: true; data: T } | { ok: false; detail: string };

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

/** Rounds of stripping unknown fields before giving up (nesting rarely needs more than one). */
const MAX_ROUNDS = 8;
/** Upper bound of {@link describeIssue}'s text. */
const MAX_DETAIL = 200;
/** Parse options of schemas used a few times per process: no generated fast path. */
const ONE_SHOT = { jitless: true } as const;
/** Path segments and key names shown as they are; anything else is shown as `?`. */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Parse `value` with the strict `schema`, exactly: any issue fails.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseExact } from "./result_check.ts";
 * const result = parseExact(z.strictObject({ n: z.number() }), { n: "1" });
 * console.assert(!result.ok && result.detail === "n: expected number");
 * ```
 */
export function parseExact<T>(schema: z.ZodType<T>, value: unknown): CheckResult<T> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, data: parsed.data }
    : { ok: false, detail: describeIssues(parsed.error.issues) };
}

/**
 * Parse `value` with the strict `schema`, ignoring unknown additional object
 * fields at any depth: when every issue is `unrecognized_keys` (also inside
 * the best-matching option of a union), those keys are removed from a copy of
 * `value` and it is parsed again. Anything else (a wrong type, a missing
 * field, an unknown enum value) fails. `value` is never modified, and the
 * data returned always passed the strict schema.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseTolerant } from "./result_check.ts";
 * const schema = z.strictObject({ n: z.number() });
 * const result = parseTolerant(schema, { n: 1, added_later: true });
 * console.assert(result.ok && JSON.stringify(result.data) === '{"n":1}');
 * ```
 */
export function parseTolerant<T>(schema: z.ZodType<T>, value: unknown): CheckResult<T> {
  let input = value;
  let copied = false;
  for (let round = 0;; round++) {
    // Without zod's generated fast path: a result schema parses a few times per session (the
    // per-call result has a hand-written check first), and generating the fast path of a large
    // schema such as `initialize`'s costs more than interpreting it (bench/notes.md).
    const parsed = schema.safeParse(input, ONE_SHOT);
    if (parsed.success) return { ok: true, data: parsed.data };
    const issues = parsed.error.issues;
    const removals = round < MAX_ROUNDS ? unknownFields(issues, []) : null;
    if (removals === null || removals.length === 0) {
      return { ok: false, detail: describeIssues(issues) };
    }
    if (!copied) {
      input = structuredClone(input);
      copied = true;
    }
    for (const removal of removals) removeKeys(input, removal.path, removal.keys);
  }
}

interface Removal {
  path: PathKey[];
  keys: string[];
}

/**
 * The unknown fields to remove when every issue is `unrecognized_keys` (or a
 * union whose best option fails only on those), else null.
 */
function unknownFields(issues: readonly Issue[], base: PathKey[]): Removal[] | null {
  const removals: Removal[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      removals.push({ path: [...base, ...issue.path], keys: issue.keys });
      continue;
    }
    if (issue.code !== "invalid_union") return null;
    // The option that needs the fewest removals; ties go to the first.
    let best: Removal[] | null = null;
    let bestKeys = Infinity;
    for (const option of issue.errors) {
      const inner = unknownFields(option, [...base, ...issue.path]);
      if (inner === null || inner.length === 0) continue;
      const keys = inner.reduce((n, r) => n + r.keys.length, 0);
      if (keys < bestKeys) {
        best = inner;
        bestKeys = keys;
      }
    }
    if (best === null) return null;
    removals.push(...best);
  }
  return removals;
}

function removeKeys(root: unknown, path: readonly PathKey[], keys: readonly string[]): void {
  let node = root;
  for (const segment of path) {
    if (typeof node !== "object" || node === null) return;
    node = (node as Record<PropertyKey, unknown>)[segment];
  }
  if (typeof node !== "object" || node === null || Array.isArray(node)) return;
  const object = node as Record<string, unknown>;
  for (const key of keys) if (Object.hasOwn(object, key)) delete object[key];
}

/**
 * A bounded description of the first issue that is not about unknown fields
 * (else the first issue): `path: what`, e.g. `limits.input_frame_bytes:
 * expected number`. Names outside the ID grammar show as `?`; values never
 * appear.
 */
export function describeIssues(issues: readonly Issue[]): string {
  const issue = issues.find((i) => i.code !== "unrecognized_keys") ?? issues[0];
  if (issue === undefined) return "invalid";
  const text = `${formatPath(issue.path)}: ${describeIssue(issue)}`;
  return text.length <= MAX_DETAIL ? text : `${text.slice(0, MAX_DETAIL - 1)}…`;
}

function safeName(name: PropertyKey): string {
  if (typeof name === "number") return String(name);
  return typeof name === "string" && SAFE_NAME.test(name) ? name : "?";
}

function formatPath(path: readonly PathKey[]): string {
  if (path.length === 0) return "(root)";
  return path.map(safeName).join(".");
}

function describeIssue(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${safeName(issue.expected)}`;
    case "unrecognized_keys": {
      const shown = issue.keys.slice(0, 3).map(safeName).join(", ");
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${shown}` +
        (issue.keys.length > 3 ? ` and ${issue.keys.length - 3} more` : "");
    }
    case "invalid_union": {
      // A single failing option: describe its first issue, relative to the union.
      const only = issue.errors.length === 1 ? issue.errors[0]?.[0] : undefined;
      if (only !== undefined && only.path.length === 0) return describeIssue(only);
      return "invalid_union";
    }
    default:
      return issue.code;
  }
}
