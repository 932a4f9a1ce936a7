/**
 * Optional validation of the backend's own output against the protocol schemas.
 *
 * Enabled with `MAGI_BACKEND_SELF_CHECK=1` (the tests do). A violation is a backend bug:
 * it throws, which ends the child, so a test sees it instead of a client.
 *
 * @module
 */

import { EVENT_SCHEMAS, isMethod, METHOD_SCHEMAS } from "../../protocol/schemas/mod.ts";

/** Throw if `data` is not valid data of event `event`. */
export function checkEventData(event: string, data: unknown): void {
  const schema = (EVENT_SCHEMAS as Record<string, { safeParse(v: unknown): { success: boolean } }>)[
    event
  ];
  if (schema === undefined) throw new TypeError(`Backend emitted an unknown event: ${event}`);
  if (!schema.safeParse(data).success) {
    throw new TypeError(`Backend emitted invalid event data: ${event}`);
  }
}

/** Throw if `result` is not a valid result of `method`. */
export function checkResult(method: string, result: unknown): void {
  if (!isMethod(method)) return;
  const schema = METHOD_SCHEMAS[method].result;
  if (!schema.safeParse(result).success) {
    throw new TypeError(`Backend produced an invalid result: ${method}`);
  }
}
