/**
 * A fake {@link Clock} for tests: time stands still until the test moves it with
 * {@link FakeTime.tick}, which fires every timer that falls due on the way, in order of their
 * due time (then of arming), and lets the promise reactions they cause run before the next one.
 * A test that hands it to the code under test (`clock: time`) sees a 10 ms deadline fire at
 * exactly 10 ms, however loaded the machine is, and never waits for real time to pass.
 *
 * Written for this repository (std's `FakeTime` is not reachable here); unlike std's, it
 * replaces no globals: only code that was given the clock sees fake time.
 *
 * @module
 */

import type { Clock, TimerId } from "../src/async/clock.ts";

interface FakeTimer {
  readonly id: number;
  at: number;
  readonly callback: () => void;
  /** Set for an interval: the period, ms. */
  readonly every: number | undefined;
}

/**
 * Let every promise reaction queued so far (and the ones they queue) run: one real
 * zero-delay macrotask, which the event loop starts only after the microtask queue is empty.
 * This is a turn of the event loop, not a wait for time to pass.
 */
export function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Fake monotonic time and timers; see the module doc. */
export class FakeTime implements Clock {
  #now: number;
  #nextId = 1;
  #timers = new Map<number, FakeTimer>();

  /** Start at `start` ms (default 0). */
  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    return this.#add(callback, ms, undefined);
  }

  clearTimeout(id: TimerId | undefined): void {
    if (typeof id === "number") this.#timers.delete(id);
  }

  setInterval(callback: () => void, ms: number): TimerId {
    return this.#add(callback, ms, Math.max(1, finite(ms)));
  }

  clearInterval(id: TimerId | undefined): void {
    this.clearTimeout(id);
  }

  /** Timers armed and not yet fired or cleared (intervals count until cleared). */
  get pending(): number {
    return this.#timers.size;
  }

  /** When the next timer falls due, or `undefined` with none armed. */
  get nextAt(): number | undefined {
    return this.#next(Infinity)?.at;
  }

  /**
   * Move time forward by `ms` (default 0: only what is due now), firing each timer that
   * falls due on the way at its own due time, and draining microtasks before the first and
   * after each one, so a timer armed by a callback fires too if it falls due within `ms`.
   */
  async tick(ms = 0): Promise<void> {
    const end = this.#now + Math.max(0, finite(ms));
    await drainMicrotasks();
    for (let timer = this.#next(end); timer !== undefined; timer = this.#next(end)) {
      this.#now = Math.max(this.#now, timer.at);
      if (timer.every === undefined) this.#timers.delete(timer.id);
      else timer.at += timer.every;
      timer.callback();
      await drainMicrotasks();
    }
    this.#now = end;
    await drainMicrotasks();
  }

  /** Move time to the next timer's due time and fire what is due then; false with none armed. */
  async next(): Promise<boolean> {
    const at = this.nextAt;
    if (at === undefined) return false;
    await this.tick(at - this.#now);
    return true;
  }

  /**
   * Move time forward until `condition()` holds: from timer to timer (each {@link next}), or
   * in steps of `stepMs` when given; throws after `maxMs` of fake time, so a test that waits
   * for something that never happens fails instead of hanging.
   */
  async tickUntil(condition: () => boolean, maxMs: number, stepMs?: number): Promise<void> {
    const end = this.#now + maxMs;
    await drainMicrotasks();
    while (!condition()) {
      if (this.#now >= end) throw new Error(`Condition not met within ${maxMs} ms of fake time`);
      const to = stepMs === undefined ? Math.min(this.nextAt ?? end, end) : this.#now + stepMs;
      await this.tick(Math.min(Math.max(0, to - this.#now), end - this.#now));
    }
  }

  #add(callback: () => void, ms: number, every: number | undefined): number {
    const id = this.#nextId++;
    this.#timers.set(id, { id, at: this.#now + Math.max(0, finite(ms)), callback, every });
    return id;
  }

  /** The timer due first at or before `end` (ties: the one armed first). */
  #next(end: number): FakeTimer | undefined {
    let first: FakeTimer | undefined;
    for (const timer of this.#timers.values()) {
      if (timer.at > end) continue;
      if (first === undefined || timer.at < first.at) first = timer;
    }
    return first;
  }
}

/** Timers treat a non-finite or missing delay as 0, as the real ones do. */
function finite(ms: number): number {
  return Number.isFinite(ms) ? ms : 0;
}
