/**
 * Small asynchronous building blocks shared by every layer (the bottom of the layering: imports
 * nothing). `deadline.ts`: race a promise against a timer and an abort signal.
 *
 * @example
 * ```ts
 * import { waitWithin } from "./mod.ts";
 * console.assert(await waitWithin(new Promise(() => {}), 5) === undefined);
 * ```
 *
 * @module
 */

export { settleWithin, waitWithin, type WithinOptions } from "./deadline.ts";
