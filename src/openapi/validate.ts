/**
 * Argument validation against a generated input schema, with Ajv (JSON
 * Schema 2020-12, formats not enforced: OpenAPI formats such as `int64` or
 * `binary` are hints, not checks). A failure is a short model-readable text
 * in the style of a module tool's `invalid_arguments`.
 *
 * @module
 */

import { Ajv2020, type ErrorObject } from "./_deps.ts";
import { formatIssues } from "../text/bounded.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

/**
 * A compiled validator: `null` when valid, else the reason (`id: required`), to which the host
 * adds `Invalid arguments: ` (`ExternalToolSpec.validate`).
 */
export type Validator = (args: unknown) => string | null;

/**
 * Compile `schema`; throws when Ajv cannot (the caller names the operation).
 *
 * @example
 * ```ts
 * import { compileValidator } from "./validate.ts";
 * const check = compileValidator({ type: "object", properties: { id: { type: "integer" } }, required: ["id"] });
 * console.assert(check({ id: 1 }) === null);
 * console.assert(check({}) === "id: required");
 * ```
 */
export function compileValidator(schema: Record<string, unknown>): Validator {
  const check = ajv.compile(schema);
  return (args) => {
    if (check(args)) return null;
    return formatIssues((check.errors ?? []).map(issueOf));
  };
}

function issueOf(error: ErrorObject): { path: (string | number)[]; message: string } {
  const path = error.instancePath === ""
    ? []
    : error.instancePath.slice(1).split("/").map((s: string) =>
      /^(0|[1-9][0-9]{0,8})$/.test(s) ? Number(s) : s.replaceAll("~1", "/").replaceAll("~0", "~")
    );
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    return { path: [...path, String(params["missingProperty"])], message: "required" };
  }
  if (error.keyword === "additionalProperties") {
    return { path: [...path, String(params["additionalProperty"])], message: "unknown property" };
  }
  return { path, message: error.message ?? error.keyword };
}
