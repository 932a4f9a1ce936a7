/**
 * Racing a promise against a timer (and an optional abort signal): the one helper for "wait for
 * this at most so long", like std's `async/deadline.ts` but answering `undefined` instead of
 * throwing, because every caller here moves on to its next step (SIGTERM, SIGKILL, a failure
 * record) when time runs out. The timer is always cleared and the abort listener always
 * removed, whichever side wins, so a finished wait keeps nothing alive.
 *
 * @example
 * ```ts
 * import { settleWithin, waitWithin } from "./deadline.ts";
 * const fast = await waitWithin(Promise.resolve(42), 1_000);
 * console.assert(fast === 42);
 * const slow = await waitWithin(new Promise(() => {}), 10);
 * console.assert(slow === undefined);
 * console.assert(await settleWithin(Promise.reject(new Error("no")), 1_000));
 * ```
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "./clock.ts";

/** Options of {@link waitWithin} and {@link settleWithin}. */
export interface WithinOptions {
  /** Stop waiting as soon as this aborts (as if time ran out). */
  signal?: AbortSignal | undefined;
  /** The timers to wait with; default {@link REAL_CLOCK}. */
  clock?: Clock | undefined;
}

/**
 * The value of `promise` if it fulfils within `ms` milliseconds, or `undefined` when the time
 * runs out or `options.signal` aborts first. A rejection of `promise` within the time is passed
 * on. `ms` of `Infinity` waits without a timer (only the signal can cut it short).
 */
export function waitWithin<T>(
  promise: Promise<T>,
  ms: number,
  options: WithinOptions = {},
): Promise<T | undefined> {
  const signal = options.signal;
  const clock = options.clock ?? REAL_CLOCK;
  if (signal?.aborted) return Promise.resolve(undefined);
  let timer: TimerId | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<undefined>((resolve) => {
    if (Number.isFinite(ms)) timer = clock.setTimeout(() => resolve(undefined), Math.max(0, ms));
    onAbort = () => resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, limit]).finally(() => {
    clock.clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  });
}

/**
 * Wait for `promise` to settle (fulfil or reject) at most `ms` milliseconds, or until
 * `options.signal` aborts. True when it settled in time; never rejects.
 */
export async function settleWithin(
  promise: Promise<unknown>,
  ms: number,
  options: WithinOptions = {},
): Promise<boolean> {
  const settled = promise.then(() => true, () => true);
  return (await waitWithin(settled, ms, options)) === true;
}
