/**
 * Fair call slots for `magi-tools mcp` (internal): every MCP client shares the executor's
 * `concurrent_calls` slots, so one client could hold them all and make every other client
 * wait. A call takes one of these slots before it reaches the executor (never more than the
 * executor's own count, so the executor never queues):
 *
 * - at most `perClient` slots per client (over HTTP one fewer than the total, so a second
 *   client always finds one);
 * - waiting calls are served round-robin between clients, first come first served within one;
 * - a waiting call whose signal fires leaves the line and never takes a slot.
 *
 * @example
 * ```ts
 * import { FairSlots } from "./_fair_slots.ts";
 * const slots = new FairSlots({ capacity: 2, perClient: 1 });
 * const first = await slots.acquire("a", new AbortController().signal);
 * console.assert(first !== null);
 * first?.();
 * ```
 *
 * @module
 */

/** Options of {@link FairSlots}. */
export interface FairSlotsOptions {
  /** Slots in all (at least 1). */
  readonly capacity: number;
  /** Slots one client may hold at once (at least 1, at most `capacity`). */
  readonly perClient: number;
}

interface Waiter {
  readonly key: string;
  readonly grant: () => void;
}

/** At most `capacity` holders, at most `perClient` per client, waiters served round-robin. */
export class FairSlots {
  readonly #capacity: number;
  readonly #perClient: number;
  #held = 0;
  readonly #heldBy = new Map<string, number>();
  /** Waiting calls per client; the map's order is the round-robin order. */
  readonly #waiting = new Map<string, Waiter[]>();

  /** Slots as `options` says. */
  constructor(options: FairSlotsOptions) {
    this.#capacity = Math.max(1, Math.floor(options.capacity));
    this.#perClient = Math.min(this.#capacity, Math.max(1, Math.floor(options.perClient)));
  }

  /** Slots held now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Take a slot for client `key`, waiting in line if none is free to it. Resolves the
   * function that gives it back, or null without a slot when `signal` fired first.
   */
  acquire(key: string, signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      const onAbort = () => {
        const line = this.#waiting.get(key);
        const index = line?.indexOf(waiter) ?? -1;
        if (index >= 0) line!.splice(index, 1);
        if (line?.length === 0) this.#waiting.delete(key);
        resolve(null);
        // A waiter that left may have blocked no one, but dispatching is cheap and safe.
        this.#dispatch();
      };
      const waiter: Waiter = {
        key,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.#release(key);
          });
        },
      };
      const line = this.#waiting.get(key);
      if (line === undefined) this.#waiting.set(key, [waiter]);
      else line.push(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#dispatch();
    });
  }

  #release(key: string): void {
    this.#held--;
    const held = (this.#heldBy.get(key) ?? 1) - 1;
    if (held <= 0) this.#heldBy.delete(key);
    else this.#heldBy.set(key, held);
    this.#dispatch();
  }

  /** Grant free slots to the first client in round-robin order that may take one. */
  #dispatch(): void {
    while (this.#held < this.#capacity) {
      let granted = false;
      for (const [key, line] of this.#waiting) {
        if ((this.#heldBy.get(key) ?? 0) >= this.#perClient) continue;
        const waiter = line.shift()!;
        // The client goes to the end of the round.
        this.#waiting.delete(key);
        if (line.length > 0) this.#waiting.set(key, line);
        this.#held++;
        this.#heldBy.set(key, (this.#heldBy.get(key) ?? 0) + 1);
        waiter.grant();
        granted = true;
        break;
      }
      if (!granted) return;
    }
  }
}
