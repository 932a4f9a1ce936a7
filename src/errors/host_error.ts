/**
 * `HostError`: the one error type of the host, with a {@link HostErrorCode}. Callers decide
 * on `.code`; the exit code of a code is chosen in one place (`src/run/exit_codes.ts`).
 *
 * @module
 */

import type { HostErrorCode } from "./codes.ts";

/**
 * A failure of the host, with its code. The public classes (`UsageError`, `BackendExited`,
 * `ClientClosed`, `ProtocolViolation`, `RequestBudgetExhausted`, `ToolLoadError`,
 * `RegistryError`) are thin subclasses that fix the code and keep their names.
 *
 * @example
 * ```ts
 * import { HostError } from "./host_error.ts";
 * const error = new HostError("usage", "Option --timeout needs a value");
 * console.assert(error.code === "usage" && error.name === "HostError");
 * ```
 */
export class HostError<C extends HostErrorCode = HostErrorCode> extends Error {
  /** What failed (the host's code; a wire error's code is `ProtocolError.code`). */
  readonly code: C;
  /** Create the error with `code` and `message` (sentence case, details after a colon). */
  constructor(code: C, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "HostError";
    this.code = code;
  }
}

/**
 * Whether `error` is a {@link HostError}, with one of `codes` when given.
 *
 * @example
 * ```ts
 * import { HostError, isHostError } from "./host_error.ts";
 * const error: unknown = new HostError("config", "magi-tools.jsonc: bad");
 * console.assert(isHostError(error, "config", "usage") && !isHostError(error, "usage"));
 * ```
 */
export function isHostError<C extends HostErrorCode>(
  error: unknown,
  ...codes: C[]
): error is HostError<C> {
  return error instanceof HostError && (codes.length === 0 || codes.includes(error.code as C));
}
