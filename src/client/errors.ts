/**
 * Local errors of the client (wire errors are `ProtocolError`). Each one but
 * {@link StaleSnapshot} is a `HostError` (`src/errors/`) with a fixed code, kept as
 * a class of its own name for library users.
 *
 * @module
 */

import { HostError } from "../errors/mod.ts";

/**
 * The backend broke the protocol (unknown frame type, event or error code,
 * invalid result or event data, `seq` gap, `instance_id` change, a response
 * to an unknown ID, an invalid or oversized output line). The client fails
 * closed: every pending request rejects with this error and the connection
 * closes.
 */
export class ProtocolViolation extends HostError<"protocol_violation"> {
  /**
   * A bounded phrase naming the violated rule; for invalid result or event
   * data it names the method or event, the field path and the issue code
   * (e.g. `Invalid initialize result: limits.input_frame_bytes: expected number`).
   * Never a value; field names outside the ID grammar show as `?`.
   */
  readonly reason: string;
  /** Create the error for `reason`. */
  constructor(reason: string, options?: ErrorOptions) {
    super("protocol_violation", `Protocol violation: ${reason}`, options);
    this.name = "ProtocolViolation";
    this.reason = reason;
  }
}

/**
 * The backend's stdout ended (the child exited or closed it). Pending
 * requests reject with this error; nothing is re-sent.
 */
export class BackendExited extends HostError<"backend_exited"> {
  /** The child's exit code, or null when unknown. */
  readonly exitCode: number | null;
  /** The signal that ended the child, or null. */
  readonly signal: string | null;
  /** Create the error for an exit with `exitCode` / `signal`. */
  constructor(exitCode: number | null, signal: string | null = null) {
    const how = signal !== null
      ? `signal ${signal}`
      : exitCode === null
      ? "unknown status"
      : `code ${exitCode}`;
    super("backend_exited", `Backend exited: ${how}`);
    this.name = "BackendExited";
    this.exitCode = exitCode;
    this.signal = signal;
  }
}

/**
 * The client stopped locally: it was closed, its writer failed, or its event
 * queue overflowed because the consumer was too slow.
 */
export class ClientClosed extends HostError<"client_closed"> {
  /** Create the error with `message`. */
  constructor(message: string, options?: ErrorOptions) {
    super("client_closed", message, options);
    this.name = "ClientClosed";
  }
}

/**
 * A paged snapshot changed while a paging helper followed its cursors (`stale_revision`
 * for history and session listings, `stale_catalog` for the catalog). The pages already
 * yielded are not a complete view: start again from a fresh snapshot. Not a `HostError`:
 * its `code` is the wire code that ended paging (a caller maps it to `request_failed`).
 */
export class StaleSnapshot extends Error {
  /** The wire code that ended paging. */
  readonly code: "stale_revision" | "stale_catalog";
  /** What was being paged (`history`, `sessions`, `catalog`). */
  readonly what: string;
  /** Create the error for `what` ending with `code`. */
  constructor(what: string, code: "stale_revision" | "stale_catalog", options?: ErrorOptions) {
    super(`The ${what} changed while paging (${code}): start again from a fresh snapshot`, options);
    this.name = "StaleSnapshot";
    this.code = code;
    this.what = what;
  }
}

/**
 * A request was refused locally, before it was sent, because it would use one
 * of the request IDs the client keeps in reserve (or none are left). The
 * backend retains a bounded number of request IDs per child (`limits.request_ids`,
 * 4096 in version 1) and closes the connection with `request_limit` on the next
 * new one, so the client stops short of that bound: the last few IDs stay
 * available for `turn.cancel`, `status` and `shutdown`. The connection stays
 * usable for those; restart the backend to continue.
 */
export class RequestBudgetExhausted extends HostError<"request_budget_exhausted"> {
  /** The method that was refused. */
  readonly method: string;
  /** Request IDs still unused (all of them reserved) when it was refused. */
  readonly remaining: number;
  /** Create the error for `method` with `remaining` IDs left. */
  constructor(method: string, remaining: number) {
    super(
      "request_budget_exhausted",
      `Request ID budget exhausted: ${method} not sent, ${remaining} request IDs left for ` +
        "turn.cancel, status and shutdown",
    );
    this.name = "RequestBudgetExhausted";
    this.method = method;
    this.remaining = remaining;
  }
}
