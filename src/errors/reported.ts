/**
 * `Reported`: a failure whose message is already written (on stderr), as a value that still
 * says what failed, instead of a `null` that hides it.
 *
 * @module
 */

import type { HostErrorCode } from "./codes.ts";

/** A failure already reported on stderr: its code, without the message again. */
export interface Reported {
  /** Marks the value (no result of the host has this field). */
  readonly reported: true;
  /** What failed; its exit code is `exitCode(code)` (`src/run/exit_codes.ts`). */
  readonly code: HostErrorCode;
}

/**
 * The {@link Reported} value of a failure with `code`.
 *
 * @example
 * ```ts
 * import { isReported, reported } from "./reported.ts";
 * const value = reported("config");
 * console.assert(isReported(value) && value.code === "config");
 * ```
 */
export function reported(code: HostErrorCode): Reported {
  return { reported: true, code };
}

/** Whether `value` is a {@link Reported} (anything else is the caller's result). */
export function isReported(value: unknown): value is Reported {
  return typeof value === "object" && value !== null &&
    (value as { reported?: unknown }).reported === true;
}
