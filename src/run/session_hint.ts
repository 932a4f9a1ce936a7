/**
 * What `run --session ID` tells a user whose session cannot be opened: which
 * sessions exist is per working directory, and how to list them.
 *
 * @module
 */

import { ProtocolError } from "../protocol/errors.ts";
import { HostError } from "../errors/mod.ts";

const LIST_HINT = "sessions belong to the working directory they were created in (see --cwd); " +
  "list this directory's sessions with 'magi-tools sessions'";

/**
 * The host failure for a `session.open` of `sessionId` that the backend
 * rejected because the session is unknown here (`session_missing`) or was
 * made in another directory (`cwd_mismatch`), with the way out; null for
 * any other error.
 *
 * @example
 * ```ts
 * import { ProtocolError } from "../protocol/errors.ts";
 * import { sessionOpenFailure } from "./session_hint.ts";
 * const failure = sessionOpenFailure(new ProtocolError("session_missing"), "abc");
 * console.assert(failure?.message.includes("magi-tools sessions"));
 * ```
 */
export function sessionOpenFailure(
  error: unknown,
  sessionId: string,
): HostError<"request_failed"> | null {
  if (!(error instanceof ProtocolError)) return null;
  if (error.code === "session_missing") {
    return new HostError(
      "request_failed",
      `Session not found: ${sessionId} (session_missing): ${LIST_HINT}`,
    );
  }
  if (error.code === "cwd_mismatch") {
    return new HostError(
      "request_failed",
      `Session ${sessionId} was recorded in another working directory (cwd_mismatch): ${LIST_HINT}`,
    );
  }
  return null;
}
