/**
 * The host's error codes: one enum for every failure the host reports (the wire's error
 * codes stay the protocol's, `src/protocol/errors.ts`).
 *
 * @module
 */

/**
 * The codes a `host.error` summary record carries (`docs/summaries.md`): why the host
 * stopped abnormally after the summaries began. The summary schema's `HOST_ERROR_CODES`
 * is this list (`src/summary/constants.ts` re-exports it).
 */
export const RECORD_ERROR_CODES = [
  "protocol_violation",
  "backend_exited",
  "backend_stalled",
  "backend_unavailable",
  "startup_failed",
  "descriptor_mismatch",
  "request_failed",
  "client_closed",
  "interrupted",
  "request_budget_exhausted",
  "sign_in_required",
] as const;

/**
 * The codes of failures that never reach a `host.error` record: the message goes to stderr
 * (a command's usage error, a tool set or config that cannot load) or to the caller.
 */
export const LOCAL_ERROR_CODES = [
  /** A bad flag, value or argument (`UsageError`). */
  "usage",
  /** The config file cannot be read or is invalid (`ConfigError`). */
  "config",
  /** A required config source (MCP server, OpenAPI API) did not start. */
  "source_start",
  /** A feature's packages (MCP, OpenAPI) cannot load in this process. */
  "feature_unavailable",
  /** A tool directory or module cannot be loaded (`ToolLoadError`). */
  "tool_load",
  /** The tool set cannot be registered (`RegistryError`). */
  "registry",
  /** `--require-kernel-sandbox` and a tool would run without the kernel layer. */
  "kernel_required",
  /** A batch input file is malformed. */
  "batch_input",
  /** A report input folder is not a batch output folder. */
  "report_input",
] as const;

/** A `host.error` record's code. */
export type RecordErrorCode = typeof RECORD_ERROR_CODES[number];
/** A code of a failure reported on stderr or to the caller. */
export type LocalErrorCode = typeof LOCAL_ERROR_CODES[number];
/** Every host error code. */
export type HostErrorCode = RecordErrorCode | LocalErrorCode;

const RECORD = new Set<string>(RECORD_ERROR_CODES);
const ALL = new Set<string>([...RECORD_ERROR_CODES, ...LOCAL_ERROR_CODES]);

/**
 * Whether `code` is a host error code.
 *
 * @example
 * ```ts
 * import { isHostErrorCode } from "./codes.ts";
 * console.assert(isHostErrorCode("usage") && !isHostErrorCode("busy"));
 * ```
 */
export function isHostErrorCode(code: string): code is HostErrorCode {
  return ALL.has(code);
}

/** Whether `code` is one a `host.error` record may carry. */
export function isRecordErrorCode(code: string): code is RecordErrorCode {
  return RECORD.has(code);
}
