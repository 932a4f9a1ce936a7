/**
 * The client's in-flight request window: at most `limit` requests written and not yet
 * answered, of which ordinary requests use at most `limit - reserved`; the `reserved` slots
 * are kept for priority requests (`turn.cancel`, `status`, `shutdown`), so those are never
 * stuck behind ordinary ones. Held requests go out in order, priority ones first.
 *
 * @module
 */

/** A FIFO of held items. */
class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined as never;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    }
    return item;
  }

  takeAll(): T[] {
    const all = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    return all;
  }
}

/**
 * The window: {@link offer} says whether a request may be written now (else it is held),
 * {@link answered} frees a slot and returns the held requests to write now.
 *
 * @example
 * ```ts
 * import { InFlightWindow } from "./_in_flight.ts";
 * const window = new InFlightWindow<string>(3, 1);
 * console.assert(window.offer("a", false) && window.offer("b", false));
 * console.assert(!window.offer("c", false)); // ordinary requests use 2 of the 3 slots
 * console.assert(window.offer("status", true)); // the reserved slot
 * const ready = window.answered(); // "a" answered: "c" goes out
 * console.assert(ready.length === 1 && ready[0] === "c");
 * ```
 */
export class InFlightWindow<T> {
  readonly #limit: number;
  readonly #ordinaryLimit: number;
  #inFlight = 0;
  #ordinaryInFlight = 0;
  #priority = new Fifo<{ item: T; priority: true }>();
  #ordinary = new Fifo<{ item: T; priority: false }>();

  /** At most `limit` in flight; `reserved` of them only for priority requests. */
  constructor(limit: number, reserved: number) {
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(reserved) || reserved < 0) {
      throw new RangeError(`Invalid in-flight window: ${limit}/${reserved}`);
    }
    if (limit - reserved < 1) {
      throw new RangeError(`In-flight window leaves no slot to ordinary requests: ${limit}`);
    }
    this.#limit = limit;
    this.#ordinaryLimit = limit - reserved;
  }

  /** Requests written and not yet answered. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Requests held back. */
  get held(): number {
    return this.#priority.size + this.#ordinary.size;
  }

  /** Whether `item` may be written now (then it counts as in flight); else it is held. */
  offer(item: T, priority: boolean): boolean {
    if (priority) {
      if (this.#priority.size === 0 && this.#inFlight < this.#limit) {
        this.#inFlight++;
        return true;
      }
      this.#priority.push({ item, priority: true });
      return false;
    }
    if (this.#ordinary.size === 0 && this.#ordinaryRoom()) {
      this.#inFlight++;
      this.#ordinaryInFlight++;
      return true;
    }
    this.#ordinary.push({ item, priority: false });
    return false;
  }

  /**
   * A written request (`priority` as offered) was answered: free its slot; returns the held
   * requests that may be written now, in order (they count as in flight).
   */
  answered(priority = false): T[] {
    this.#inFlight--;
    if (!priority) this.#ordinaryInFlight--;
    const ready: T[] = [];
    while (this.#priority.size > 0 && this.#inFlight < this.#limit) {
      ready.push(this.#priority.shift()!.item);
      this.#inFlight++;
    }
    while (this.#ordinary.size > 0 && this.#ordinaryRoom()) {
      ready.push(this.#ordinary.shift()!.item);
      this.#inFlight++;
      this.#ordinaryInFlight++;
    }
    return ready;
  }

  /** Every held request, in order (priority first), no longer held nor counted. */
  takeHeld(): T[] {
    return [...this.#priority.takeAll(), ...this.#ordinary.takeAll()].map((h) => h.item);
  }

  #ordinaryRoom(): boolean {
    return this.#inFlight < this.#limit && this.#ordinaryInFlight < this.#ordinaryLimit;
  }
}
