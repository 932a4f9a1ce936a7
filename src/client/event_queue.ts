/**
 * A bounded single-consumer event queue. The producer (the client's read
 * loop) never waits: when the consumer falls behind, best-effort
 * `message.delta` events are dropped and counted (a new delta is dropped; a
 * critical event evicts the oldest queued delta); a critical event that
 * finds no delta to evict is an overflow, never a silent drop.
 *
 * @module
 */

import type { AgentEvent } from "./events.ts";

/** Result of {@link EventQueue.push}. */
export type PushResult = "queued" | "dropped" | "overflow";

/** A bounded queue of events with one async consumer. */
export class EventQueue implements AsyncIterable<AgentEvent> {
  #items: AgentEvent[] = [];
  #max: number;
  #waiter: ((value: void) => void) | null = null;
  #ended = false;
  #error: Error | null = null;
  #dropped = 0;
  #iterating = false;

  /** Create a queue holding at most `max` events. */
  constructor(max: number) {
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`Event queue bound must be a positive integer: ${max}`);
    }
    this.#max = max;
  }

  /** Count of dropped best-effort deltas. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Add an event without waiting. */
  push(event: AgentEvent): PushResult {
    if (this.#ended) return "dropped";
    if (this.#items.length >= this.#max) {
      if (event.event === "message.delta") {
        this.#dropped++;
        return "dropped";
      }
      const delta = this.#items.findIndex((item) => item.event === "message.delta");
      if (delta < 0) return "overflow";
      this.#items.splice(delta, 1);
      this.#dropped++;
    }
    this.#items.push(event);
    this.#wake();
    return "queued";
  }

  /** End the queue; the consumer sees the remaining events, then `error` (if any) or the end. */
  end(error: Error | null = null): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = error;
    this.#wake();
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.();
  }

  /** Iterate once; a second concurrent iteration throws TypeError. */
  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.#iterating) throw new TypeError("Event queue already has a consumer");
    this.#iterating = true;
    for (;;) {
      const next = this.#items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.#ended) {
        if (this.#error !== null) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#waiter = resolve;
      });
    }
  }
}
