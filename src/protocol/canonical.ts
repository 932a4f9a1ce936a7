/**
 * RFC 8785 (JSON Canonicalization Scheme) serialization and the SHA-256
 * identity of client tool definitions (`client-tools.md`).
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { JsonObject, JsonValue } from "./json.ts";

/**
 * Serialize `value` canonically (RFC 8785): object keys sorted by UTF-16 code
 * units, no whitespace, numbers in ECMAScript form (`-0` → `0`, `1e21`),
 * strings escaped as `JSON.stringify` does. Throws `RangeError` for a
 * non-finite number and `TypeError` for a value that is not JSON.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./canonical.ts";
 * console.assert(canonicalJson({ b: [1, 0.5], a: "x" }) === '{"a":"x","b":[1,0.5]}');
 * ```
 */
export function canonicalJson(value: JsonValue): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new RangeError(`Number has no JSON form: ${value}`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
      // Default sort compares UTF-16 code units, as RFC 8785 requires.
      const keys = Object.keys(value).sort();
      let out = "{";
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const member = value[key];
        if (member === undefined) throw new TypeError(`Value has no JSON form at key: ${key}`);
        out += (i === 0 ? "" : ",") + JSON.stringify(key) + ":" + canonicalJson(member);
      }
      return out + "}";
    }
    default:
      throw new TypeError(`Value has no JSON form: ${typeof value}`);
  }
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The `tool_id` of a client tool definition: SHA-256 hex of its canonical
 * JSON.
 *
 * @example
 * ```ts
 * import { toolIdOf } from "./canonical.ts";
 * console.assert(/^[0-9a-f]{64}$/.test(toolIdOf({ name: "echo" })));
 * ```
 */
export function toolIdOf(definition: JsonObject): string {
  return sha256Hex(canonicalJson(definition));
}
