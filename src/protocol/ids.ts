/**
 * Request ID lifetime rule: an ID is never reused within a child, and a child
 * retains at most {@link REQUEST_IDS} IDs.
 *
 * @module
 */

import { REQUEST_IDS } from "./limits.ts";

/**
 * Outcome of admitting a request ID: `ok` (new, now retained),
 * `duplicate_id` (seen before; never re-execute) or `request_limit` (a new ID
 * past capacity; the caller answers and closes).
 */
export type IdAdmission = "ok" | "duplicate_id" | "request_limit";

/**
 * The set of request IDs seen by one child. Admit every well-formed request,
 * including those later rejected, so their IDs are never reused.
 *
 * @example
 * ```ts
 * import { RequestIdRegistry } from "./ids.ts";
 * const ids = new RequestIdRegistry(1);
 * console.assert(ids.admit("r1") === "ok");
 * console.assert(ids.admit("r1") === "duplicate_id");
 * console.assert(ids.admit("r2") === "request_limit");
 * ```
 */
export class RequestIdRegistry {
  #ids = new Set<string>();
  #capacity: number;

  /** Create a registry retaining at most `capacity` IDs (default `REQUEST_IDS`). */
  constructor(capacity: number = REQUEST_IDS) {
    if (!Number.isSafeInteger(capacity) || capacity < 0) {
      throw new RangeError(`Request ID capacity must be a non-negative integer: ${capacity}`);
    }
    this.#capacity = capacity;
  }

  /** Admit `id`: a duplicate is reported before the limit. */
  admit(id: string): IdAdmission {
    if (this.#ids.has(id)) return "duplicate_id";
    if (this.#ids.size >= this.#capacity) return "request_limit";
    this.#ids.add(id);
    return "ok";
  }

  /** Whether `id` was admitted before. */
  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Number of retained IDs. */
  get size(): number {
    return this.#ids.size;
  }
}
