/**
 * Host failures and how they become `host.error` records: every failure is a
 * {@link HostError} with a code (`src/errors/`); {@link classify} turns any error into one
 * with a `host.error` code, and {@link hostErrorRecord} adds its exit code from the one
 * map (`exitCode()`, `./exit_codes.ts`).
 *
 * @module
 */

import { HostError, isRecordErrorCode, type RecordErrorCode } from "../errors/mod.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type { HostErrorRecord } from "../summary/records.ts";
import { type ExitCode, exitCode } from "./exit_codes.ts";

/** A failure that ends the invocation with a `host.error` record: a host error with its code. */
export type HostFailure = HostError<RecordErrorCode>;

/**
 * Whether `error` is a failure the engine decided on itself (a plain {@link HostError} it
 * created: a startup failure, a descriptor mismatch, a stall), as opposed to an error of a
 * lower floor (the client's `ProtocolViolation`, `BackendExited`, … subclasses), which the
 * connection's own first failure supersedes.
 */
export function isEngineFailure(error: unknown): error is HostFailure {
  return error instanceof HostError && Object.getPrototypeOf(error) === HostError.prototype &&
    isRecordErrorCode(error.code);
}

/**
 * The OS reason of a file system error, without Deno's decorations: "No such
 * file or directory (os error 2): open '/x/y'" → "No such file or directory";
 * a permission error loses its "run again with the --allow-… flag" hint.
 */
export function osReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/,? run again with the --allow-[a-z-]+ flag.*$/s, "")
    .replace(/ \(os error \d+\)/, "")
    .replace(/: [a-z]+ '.*'$/s, "")
    .trim();
}

/**
 * Map any error to a host failure, deciding on `.code`: a host error with a `host.error`
 * code is that failure; a wire error is `request_failed`; anything else `client_closed`.
 */
export function classify(error: unknown): HostFailure {
  if (error instanceof HostError && isRecordErrorCode(error.code)) {
    return error as HostFailure;
  }
  if (error instanceof ProtocolError) {
    return new HostError("request_failed", `Request failed: ${error.code}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HostError("client_closed", `Host failed: ${message}`);
}

/**
 * The `host.error` record of `failure` and its exit code; `started` is true once the
 * backend was ready (`backend_exited` is then a protocol failure, not a startup one).
 */
export function hostErrorRecord(
  failure: HostFailure,
  started: boolean,
): Omit<HostErrorRecord, "ts" | "v"> & { exit_code: ExitCode } {
  return {
    type: "host.error",
    code: failure.code,
    message: failure.message,
    exit_code: exitCode(failure.code, { started }),
  };
}

/** The failure of a backend that did not answer `initialize` within `ms` (named by `flag`). */
export function startDeadlineFailure(ms: number, flag: string): HostError<"startup_failed"> {
  return new HostError(
    "startup_failed",
    `The backend did not answer initialize within ${ms / 1000} s (the start deadline, ${flag})`,
  );
}

/** A deadline before the turn started: the start deadline's (`startMs`) or `--timeout`'s (null). */
export function timedOutBeforeTurn(startMs: number | null): HostError<"startup_failed"> {
  return startMs === null
    ? new HostError("startup_failed", "Timed out before the turn started")
    : startDeadlineFailure(startMs, "--start-timeout");
}
