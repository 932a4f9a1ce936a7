/**
 * The worker event channel: run events in order, with backpressure from the outbox.
 *
 * Critical events wait at most `critical_event_wait_ms` for room below the response
 * reserve; on timeout the channel is marked failed (the run then fails with
 * `output_unavailable`). Best-effort deltas are dropped when output is crowded. The
 * terminal event is never dropped: after the wait it is enqueued anyway, and an overflow
 * then ends the child (exit 1) rather than losing it silently.
 *
 * @module
 */

import { CRITICAL_EVENT_WAIT_MS } from "../../protocol/limits.ts";
import type { Outbox } from "../server/outbox.ts";

/** Ordered event emission for workers. */
export class EventChannel {
  readonly #outbox: Outbox;
  readonly #waitMs: number;
  #tail: Promise<unknown> = Promise.resolve();
  #failed = false;

  /** Emit through `outbox`. */
  constructor(outbox: Outbox, options: { waitMs?: number } = {}) {
    this.#outbox = outbox;
    this.#waitMs = options.waitMs ?? CRITICAL_EVENT_WAIT_MS;
  }

  /** Whether a critical event could not be delivered. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Enqueue a critical event in order; false when it could not be delivered. */
  critical(event: string, data: Record<string, unknown>): Promise<boolean> {
    return this.#chain(async () => {
      if (this.#failed || !(await this.#outbox.waitForRoom(this.#waitMs))) {
        this.#failed = true;
        return false;
      }
      return this.#outbox.emit(event, data);
    });
  }

  /** Enqueue a best-effort delta in order, or drop it when output is crowded. */
  delta(event: string, data: Record<string, unknown>): void {
    void this.#chain(() => {
      if (this.#failed || !this.#outbox.hasDeltaRoom()) return Promise.resolve(false);
      return Promise.resolve(this.#outbox.emit(event, data));
    });
  }

  /** Enqueue the terminal event: wait for room, then enqueue regardless. */
  terminal(event: string, data: Record<string, unknown>): Promise<boolean> {
    return this.#chain(async () => {
      await this.#outbox.waitForRoom(this.#waitMs);
      return this.#outbox.emit(event, data);
    });
  }

  #chain(step: () => Promise<boolean>): Promise<boolean> {
    const next = this.#tail.then(step, step);
    this.#tail = next.catch(() => false);
    return next;
  }
}
