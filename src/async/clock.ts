/**
 * The clock and timers a component reads time from, so a test can drive time instead of
 * sleeping: the parts that arm deadlines, graces and retries take an optional {@link Clock}
 * and default to {@link REAL_CLOCK} (the global `performance.now()` and timers). A test passes
 * its own fake clock and moves time forward explicitly; nothing else changes.
 *
 * @example
 * ```ts
 * import { REAL_CLOCK } from "./clock.ts";
 * const fired = Promise.withResolvers<number>();
 * const started = REAL_CLOCK.now();
 * REAL_CLOCK.setTimeout(() => fired.resolve(REAL_CLOCK.now() - started), 1);
 * console.assert((await fired.promise) >= 0);
 * ```
 *
 * @module
 */

/**
 * What {@link Clock.setTimeout} and {@link Clock.setInterval} answer, to clear the timer with:
 * the real timers' handle (a number in Deno, a `Timeout` object where Node.js types apply) or
 * a fake clock's number.
 */
export type TimerId = ReturnType<typeof setTimeout> | number;

/** Monotonic time and timers: the real ones ({@link REAL_CLOCK}) or a test's fake. */
export interface Clock {
  /** Monotonic milliseconds (the real clock: `performance.now()`). */
  now(): number;
  /** Call `callback` once, `ms` milliseconds from now. */
  setTimeout(callback: () => void, ms: number): TimerId;
  /** Forget a timer from {@link Clock.setTimeout}; `undefined` or a fired one is ignored. */
  clearTimeout(id: TimerId | undefined): void;
  /** Call `callback` every `ms` milliseconds until cleared. */
  setInterval(callback: () => void, ms: number): TimerId;
  /** Stop a timer from {@link Clock.setInterval}; `undefined` is ignored. */
  clearInterval(id: TimerId | undefined): void;
}

/** The real clock: `performance.now()` and the global timers, looked up at each call. */
export const REAL_CLOCK: Clock = Object.freeze({
  now: () => performance.now(),
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (id: TimerId | undefined) => clearTimeout(id),
  setInterval: (callback: () => void, ms: number) => setInterval(callback, ms),
  clearInterval: (id: TimerId | undefined) => clearInterval(id),
});
