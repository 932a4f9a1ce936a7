/**
 * Progress of a running tool call (`ctx.progress(done, total?, message?)`) and its bound.
 *
 * A tool may call `ctx.progress` as often as it likes; what leaves the call is bounded by a
 * {@link ProgressLimiter}: an update equal to the last one delivered is dropped, and updates
 * pass at most {@link PROGRESS_BURST} at once and then one per {@link PROGRESS_INTERVAL_MS}
 * (10 a second). An update that has to wait replaces any earlier one still waiting, and the
 * newest one is delivered when its turn comes or, at the latest, before the call's result:
 * the last progress a tool reported is never lost. Used on both sides of the process
 * channel: the tool process bounds what it sends, the host bounds what it records.
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { truncateText } from "../text/bounded.ts";
import type { ToolProgress } from "./external.ts";

/** Updates delivered at once before the rate applies. */
export const PROGRESS_BURST = 10;
/** After the burst, at most one update per this many ms (10 a second). */
export const PROGRESS_INTERVAL_MS = 100;
/** Longest progress message, UTF-8 bytes (a longer one is cut, ending in "…"). */
export const PROGRESS_MESSAGE_BYTES = 256;

/**
 * `ctx.progress`'s arguments checked and shaped as a {@link ToolProgress}.
 *
 * @throws {TypeError} naming the argument: `done` and `total` must be finite numbers,
 * `message` a string.
 */
export function progressUpdate(done: unknown, total?: unknown, message?: unknown): ToolProgress {
  if (typeof done !== "number" || !Number.isFinite(done)) {
    throw new TypeError(`ctx.progress: done must be a finite number: ${String(done)}`);
  }
  if (total !== undefined && (typeof total !== "number" || !Number.isFinite(total))) {
    throw new TypeError(`ctx.progress: total must be a finite number: ${String(total)}`);
  }
  if (message !== undefined && typeof message !== "string") {
    throw new TypeError(`ctx.progress: message must be a string: ${typeof message}`);
  }
  return {
    progress: done,
    ...(total === undefined ? {} : { total }),
    ...(message === undefined ? {} : { message: truncateText(message, PROGRESS_MESSAGE_BYTES) }),
  };
}

/** Bounds one call's progress updates (see the module comment). */
export class ProgressLimiter {
  readonly #deliver: (update: ToolProgress) => void;
  readonly #clock: Clock;
  #tokens = PROGRESS_BURST;
  #refilled: number;
  #held: ToolProgress | undefined;
  #timer: TimerId | undefined;
  #last = "";
  #closed = false;

  /** A limiter delivering to `deliver`, timed by `clock`. */
  constructor(deliver: (update: ToolProgress) => void, clock: Clock = REAL_CLOCK) {
    this.#deliver = deliver;
    this.#clock = clock;
    this.#refilled = clock.now();
  }

  /** Offer one update: delivered now, held for later, or dropped as unchanged. */
  push(update: ToolProgress): void {
    if (this.#closed) return;
    this.#refill();
    if (this.#held === undefined && this.#tokens >= 1) return this.#send(update);
    this.#held = update;
    if (this.#timer === undefined) {
      const wait = Math.max(1, Math.ceil((1 - this.#tokens) * PROGRESS_INTERVAL_MS));
      this.#timer = this.#clock.setTimeout(() => {
        this.#timer = undefined;
        this.#refill();
        const held = this.#held;
        this.#held = undefined;
        if (held !== undefined && !this.#closed) this.#send(held);
      }, wait);
    }
  }

  /** Deliver a held update now and accept no more (call before the call's result). */
  close(): void {
    if (this.#closed) return;
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    this.#held = undefined;
    if (held !== undefined) this.#send(held);
    this.#closed = true;
  }

  /** Accept no more and drop what is held (the call was stopped). */
  discard(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#held = undefined;
    this.#closed = true;
  }

  #refill(): void {
    const now = this.#clock.now();
    this.#tokens = Math.min(
      PROGRESS_BURST,
      this.#tokens + (now - this.#refilled) / PROGRESS_INTERVAL_MS,
    );
    this.#refilled = now;
  }

  #send(update: ToolProgress): void {
    const key = JSON.stringify([update.progress, update.total, update.message]);
    if (key === this.#last) return;
    this.#last = key;
    this.#tokens -= 1;
    this.#deliver(update);
  }
}
