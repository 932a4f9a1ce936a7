/**
 * Wall-clock time shared across processes.
 *
 * @module
 */

/** Milliseconds since the epoch with sub-millisecond resolution. */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}
