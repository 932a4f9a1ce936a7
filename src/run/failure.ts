/**
 * Host failures and how they map to `host.error` codes and exit codes.
 *
 * @module
 */

import {
  BackendExited,
  ClientClosed,
  ProtocolViolation,
  RequestBudgetExhausted,
} from "../client/errors.ts";
import { ProtocolError } from "../protocol/errors.ts";
import type { HostErrorRecord } from "../summary/records.ts";
import { EXIT } from "./exit_codes.ts";

/** A failure that ends the invocation with a `host.error` record. */
export class HostFailure extends Error {
  /** The `host.error` code. */
  readonly code: HostErrorRecord["code"];
  /** The exit code. */
  readonly exitCode: number;
  /** Create the failure. */
  constructor(code: HostErrorRecord["code"], message: string, exitCode: number) {
    super(message);
    this.name = "HostFailure";
    this.code = code;
    this.exitCode = exitCode;
  }
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

/** Map any error to a host failure; `started` is true once the backend was ready. */
export function classify(error: unknown, started: boolean): HostFailure {
  if (error instanceof HostFailure) return error;
  if (error instanceof ProtocolViolation) {
    return new HostFailure("protocol_violation", error.message, EXIT.protocol);
  }
  if (error instanceof BackendExited) {
    return new HostFailure("backend_exited", error.message, started ? EXIT.protocol : EXIT.startup);
  }
  if (error instanceof ClientClosed) {
    return new HostFailure("client_closed", error.message, EXIT.protocol);
  }
  if (error instanceof RequestBudgetExhausted) {
    return new HostFailure("request_budget_exhausted", error.message, EXIT.runFailed);
  }
  if (error instanceof ProtocolError) {
    return new HostFailure("request_failed", `Request failed: ${error.code}`, EXIT.runFailed);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HostFailure("client_closed", `Host failed: ${message}`, EXIT.protocol);
}
