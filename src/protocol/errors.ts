/**
 * Error codes of version 1 and the wire error class.
 *
 * A wire error carries a code and nothing else (`{ "code": ... }`). A client
 * fails closed on a code that is not in {@link ERROR_CODES}.
 *
 * @module
 */

/** Protocol errors (framing, envelope, negotiation). */
export const PROTOCOL_ERROR_CODES = [
  "invalid_frame",
  "invalid_request",
  "invalid_params",
  "protocol_mismatch",
  "unsupported_method",
  "unsupported_capability",
  "not_initialized",
  "already_initialized",
  "duplicate_id",
  "request_limit",
  "frame_too_large",
  "incomplete_frame",
] as const;

/** Startup errors; also the `readiness` of a failed status. */
export const STARTUP_ERROR_CODES = [
  "configuration_invalid",
  "provider_unavailable",
  "profile_invalid",
  "mcp_unavailable",
  "startup_cancelled",
  "startup_failed",
] as const;

/** Session, history, discovery, catalog, selection, turn and extension errors. */
export const OPERATION_ERROR_CODES = [
  "busy",
  "stale_session",
  "session_missing",
  "session_busy",
  "session_invalid",
  "cwd_mismatch",
  "history_limit",
  "stale_revision",
  "content_limit",
  "operation_cancelled",
  "discovery_limit",
  "discovery_unavailable",
  "catalog_limit",
  "catalog_unavailable",
  "stale_catalog",
  "stale_selection",
  "selection_invalid",
  "effort_unsupported",
  "persistence_failed",
  "stale_run",
  "stale_approval",
  "execution_failed",
  "output_unavailable",
  "stale_operation",
  "stale_call",
  "result_limit",
] as const;

/** Every error code a version-1 peer may send. */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...PROTOCOL_ERROR_CODES,
  ...STARTUP_ERROR_CODES,
  ...OPERATION_ERROR_CODES,
];

/** A protocol error code. */
export type ProtocolErrorCode = typeof PROTOCOL_ERROR_CODES[number];
/** A startup error code. */
export type StartupErrorCode = typeof STARTUP_ERROR_CODES[number];
/** Any version-1 error code. */
export type ErrorCode = ProtocolErrorCode | StartupErrorCode | typeof OPERATION_ERROR_CODES[number];

const KNOWN = new Set<string>([
  ...PROTOCOL_ERROR_CODES,
  ...STARTUP_ERROR_CODES,
  ...OPERATION_ERROR_CODES,
]);

/** Whether `code` is a known version-1 error code. */
export function isErrorCode(code: string): code is ErrorCode {
  return KNOWN.has(code);
}

/**
 * An error that crosses the wire as `{ "code": code }` and nothing else.
 *
 * @example
 * ```ts
 * import { ProtocolError } from "./errors.ts";
 * const err = new ProtocolError("busy");
 * console.assert(err.code === "busy");
 * ```
 */
export class ProtocolError extends Error {
  /** The wire error code. */
  readonly code: ErrorCode;
  /** Create a wire error with `code`. */
  constructor(code: ErrorCode, options?: ErrorOptions) {
    super(`Protocol error: ${code}`, options);
    this.name = "ProtocolError";
    this.code = code;
  }
}
