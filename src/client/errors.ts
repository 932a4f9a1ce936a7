/**
 * Local errors of the client (wire errors are `ProtocolError`).
 *
 * @module
 */

/**
 * The backend broke the protocol (unknown frame type, event or error code,
 * invalid result or event data, `seq` gap, `instance_id` change, a response
 * to an unknown ID, an invalid or oversized output line). The client fails
 * closed: every pending request rejects with this error and the connection
 * closes.
 */
export class ProtocolViolation extends Error {
  /** A fixed phrase naming the violated rule (never backend input). */
  readonly reason: string;
  /** Create the error for `reason`. */
  constructor(reason: string, options?: ErrorOptions) {
    super(`Protocol violation: ${reason}`, options);
    this.name = "ProtocolViolation";
    this.reason = reason;
  }
}

/**
 * The backend's stdout ended (the child exited or closed it). Pending
 * requests reject with this error; nothing is re-sent.
 */
export class BackendExited extends Error {
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
    super(`Backend exited: ${how}`);
    this.name = "BackendExited";
    this.exitCode = exitCode;
    this.signal = signal;
  }
}

/**
 * The client stopped locally: it was closed, its writer failed, or its event
 * queue overflowed because the consumer was too slow.
 */
export class ClientClosed extends Error {
  /** Create the error with `message`. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ClientClosed";
  }
}
