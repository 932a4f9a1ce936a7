/**
 * Many deadlines on one timer (internal to the executor): the timer is armed
 * for the earliest pending deadline only, cancelling a deadline just forgets
 * it, and a timer armed earlier serves later deadlines by re-arming when it
 * fires. With nothing pending the timer no longer keeps the process alive
 * (unref), so a call costs no timer creation in the common case. Time comes
 * from the {@link Clock} given to the constructor (the real one by default).
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { TransientMap } from "../async/transient_map.ts";

interface Entry {
  readonly key: string;
  readonly at: number;
  readonly fire: () => void;
}

/** The timer object's optional `ref`/`unref` (Node.js and Deno timers have them). */
type Refable = { ref?: () => unknown; unref?: () => unknown };

/** Deadlines that share one timer. */
export class SharedDeadlines {
  /** By a number of their own; a TransientMap so a finished call's entry dies young. */
  #entries = new TransientMap<Entry>();
  #nextKey = 0;
  #timer: TimerId | undefined;
  #timerAt = Infinity;
  #onTimer = () => this.#expire();
  readonly #clock: Clock;

  /** Deadlines on `clock`'s time and timers (default: the real ones). */
  constructor(clock: Clock = REAL_CLOCK) {
    this.#clock = clock;
  }

  /** Pending deadlines. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Call `fire` once `delayMs` ms have passed, unless the returned function
   * is called first (it cancels; calling it again does nothing).
   */
  schedule(delayMs: number, fire: () => void): () => void {
    const key = String(this.#nextKey++);
    const entry: Entry = { key, at: this.#clock.now() + Math.max(0, delayMs), fire };
    if (this.#entries.size === 0) (this.#timer as Refable | undefined)?.ref?.();
    this.#entries.set(key, entry);
    if (entry.at < this.#timerAt) this.#arm(entry.at);
    return () => {
      if (!this.#entries.delete(key) || this.#entries.size > 0) return;
      const timer = this.#timer as Refable | undefined;
      if (timer?.unref !== undefined) timer.unref();
      else this.#disarm(); // A timer that cannot be unref'd must not outlive the work.
    };
  }

  #arm(at: number): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = this.#clock.setTimeout(this.#onTimer, Math.max(0, at - this.#clock.now()));
  }

  #disarm(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #expire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.#clock.now();
    const due: Entry[] = [];
    let next = Infinity;
    for (const entry of this.#entries.values()) {
      if (entry.at <= now) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) this.#entries.delete(entry.key);
    if (next < Infinity) this.#arm(next);
    for (const entry of due) entry.fire();
  }
}
