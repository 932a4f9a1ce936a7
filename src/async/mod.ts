/**
 * Small asynchronous building blocks shared by every layer (the bottom of the layering: imports
 * nothing). `clock.ts`: the injectable clock and timers (real by default, a test's fake).
 * `deadline.ts`: race a promise against a timer and an abort signal.
 * `transient_map.ts`: a string-keyed map for per-request and per-call entries that, unlike a
 * long-lived `Map`, does not make V8 promote every entry to its old generation.
 *
 * @example
 * ```ts
 * import { waitWithin } from "./mod.ts";
 * console.assert(await waitWithin(new Promise(() => {}), 5) === undefined);
 * ```
 *
 * @module
 */

export { type Clock, REAL_CLOCK, type TimerId } from "./clock.ts";
export { settleWithin, waitWithin, type WithinOptions } from "./deadline.ts";
export { TransientMap } from "./transient_map.ts";
