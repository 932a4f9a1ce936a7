/**
 * The one error of the OpenAPI source: a config entry, a document or an
 * operation that cannot become tools. It names the file and where in it (a
 * config key path such as `openapi.tickets.include[2]`, or a JSON pointer
 * such as `#/paths/~1tickets/get`) and why; the CLI answers it with exit 2.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";

/**
 * A config entry or OpenAPI document that cannot be turned into tools: a `HostError` with
 * the code `config`.
 */
export class OpenApiError extends HostError<"config"> {
  /** The config file or OpenAPI document at fault, as given. */
  readonly file: string;
  /** Where in it: a config key path (`openapi.x.spec`) or a JSON pointer (`#/paths/...`); may be empty. */
  readonly at: string;
  /** Why, without the file and location. */
  readonly reason: string;

  /**
   * @example
   * ```ts
   * import { OpenApiError } from "./errors.ts";
   * const error = new OpenApiError("specs/t.yaml", "#/paths/~1t/get", "unresolved $ref");
   * console.assert(error.message === "specs/t.yaml: #/paths/~1t/get: unresolved $ref");
   * ```
   */
  constructor(file: string, at: string, reason: string, options?: ErrorOptions) {
    super("config", `${file}: ${at === "" ? "" : `${at}: `}${reason}`, options);
    this.name = "OpenApiError";
    this.file = file;
    this.at = at;
    this.reason = reason;
  }
}

/** `segments` as a JSON pointer fragment (`#/paths/~1pets/get`), RFC 6901 escaping. */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return "#" + segments.map((s) => "/" + String(s).replaceAll("~", "~0").replaceAll("/", "~1"))
    .join("");
}
