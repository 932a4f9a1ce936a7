/**
 * How many requests one connection (`AgentConnection`, `connection.ts`) may have: the request
 * IDs kept in reserve for the requests that stop or inspect a backend, and the bound on
 * requests in flight with the slots kept for them.
 *
 * @module
 */

/**
 * Request IDs kept in reserve for `turn.cancel`, `status` and `shutdown`: other
 * requests are refused locally (`RequestBudgetExhausted`) once only these
 * are left of the backend's `limits.request_ids`.
 */
export const REQUEST_ID_RESERVE = 8;

/**
 * Requests written and not yet answered, at most — every method counted, `turn.cancel`,
 * `status` and `shutdown` included (the protocol: "Caller must bound in-flight requests
 * independently"). Each answer is one output frame of the backend, whose pending output is
 * bounded at 32 frames (overflow ends the backend); the reference backend's run events
 * never fill more than 24 of them, so 8 requests in flight always fit (docs/reference-
 * backend.md, "What a client can rely on"). Further requests wait in the connection, in
 * order, until answers arrive.
 */
export const MAX_IN_FLIGHT_REQUESTS = 8;

/**
 * Of {@link MAX_IN_FLIGHT_REQUESTS}, the slots only `turn.cancel`, `status` and `shutdown`
 * use, so they are never stuck behind ordinary requests (e.g. pipelined tool result parts).
 */
export const PRIORITY_IN_FLIGHT_SLOTS = 2;

/** Methods that may use the reserved request IDs. */
export const RESERVE_METHODS: ReadonlySet<string> = new Set(["turn.cancel", "status", "shutdown"]);
