/**
 * A counting semaphore with a FIFO queue whose waiters can be aborted
 * (internal to the executor).
 *
 * @module
 */

interface Waiter {
  readonly grant: () => void;
}

/** At most `capacity` holders at once; waiters are served in arrival order. */
export class Slots {
  readonly #capacity: number;
  #held = 0;
  readonly #queue: Waiter[] = [];

  /** `capacity` slots (at least 1). */
  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.floor(capacity));
  }

  /** Slots currently held. */
  get held(): number {
    return this.#held;
  }

  /**
   * Take a slot, waiting in line if none is free. Resolves `false` without a
   * slot when `signal` fires first (the waiter leaves the line).
   */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.#held < this.#capacity && this.#queue.length === 0) {
      this.#held++;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = () => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        resolve(false);
      };
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(true);
        },
      };
      this.#queue.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Give a slot back; the first waiter, if any, takes it over. */
  release(): void {
    const next = this.#queue.shift();
    if (next !== undefined) next.grant();
    else this.#held = Math.max(0, this.#held - 1);
  }
}
