/**
 * An independent RFC 8785 canonicalizer and `tool_id` computation for the conformance suite.
 *
 * Kept separate from `src/protocol/canonical.ts` on purpose: the suite recomputes tool IDs
 * from the spec, not from the code under test.
 *
 * @module
 */

import { createHash } from "node:crypto";

/**
 * Serialize a JSON value canonically: keys sorted by UTF-16 code units, no whitespace,
 * ECMAScript number and string serialization.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./_canonical.ts";
 * console.assert(canonicalJson({ b: 1, a: [true] }) === '{"a":[true],"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`Not a JSON number: ${value}`);
    return JSON.stringify(value);
  }
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  throw new TypeError(`Not a JSON value: ${typeof value}`);
}

/** SHA-256 lowercase hex of the canonical serialization of a tool definition. */
export function expectedToolId(definition: unknown): string {
  return createHash("sha256").update(canonicalJson(definition), "utf8").digest("hex");
}
