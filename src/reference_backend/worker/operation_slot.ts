/**
 * The single session worker's slot: at most one pending session/history/catalog/discovery
 * operation, answered exactly once — by its work, by `operation.cancel` or by shutdown
 * (`operation_cancelled`). The slot stays occupied until the work itself ends, so a
 * cancelled operation's cleanup still makes others `busy`.
 *
 * @module
 */

import type { ResponsePayload } from "../server/outbox.ts";

/** One pending operation. */
export interface PendingOperation {
  /** Request ID. */
  readonly id: string;
  /** Aborted when the operation is cancelled. */
  readonly signal: AbortSignal;
}

interface Entry extends PendingOperation {
  reply: (payload: ResponsePayload) => void;
  settled: boolean;
  abort: AbortController;
}

const CANCELLED: ResponsePayload = { error: { code: "operation_cancelled" } };

/** The worker slot of one child. */
export class OperationSlot {
  #current: Entry | null = null;

  /** Whether an operation (or its cleanup) occupies the worker. */
  get busy(): boolean {
    return this.#current !== null;
  }

  /** Occupy the slot for request `id`; the caller checked {@link busy}. */
  begin(id: string, reply: (payload: ResponsePayload) => void): PendingOperation {
    const abort = new AbortController();
    const entry: Entry = { id, reply, settled: false, abort, signal: abort.signal };
    this.#current = entry;
    return entry;
  }

  /** The work of `operation` ended with `payload`: answer (unless cancelled), free the slot. */
  finish(operation: PendingOperation, payload: ResponsePayload): void {
    const entry = operation as Entry;
    if (this.#current === entry) this.#current = null;
    if (entry.settled) return;
    entry.settled = true;
    entry.reply(entry.abort.signal.aborted ? CANCELLED : payload);
  }

  /**
   * The work of `operation` committed its effect: answer `payload` now, in the same tick
   * (unless it was cancelled: then false, and the caller must not commit), while the slot
   * stays occupied until {@link finish}.
   */
  answer(operation: PendingOperation, payload: ResponsePayload): boolean {
    const entry = operation as Entry;
    if (entry.settled) return !entry.abort.signal.aborted;
    if (entry.abort.signal.aborted) return false;
    entry.settled = true;
    entry.reply(payload);
    return true;
  }

  /** `operation.cancel`: answer the pending operation `id` with `operation_cancelled`. */
  cancel(id: string): boolean {
    const entry = this.#current;
    if (entry === null || entry.settled || entry.id !== id) return false;
    this.#cancel(entry);
    return true;
  }

  /** Shutdown: cancel whatever is pending. */
  cancelAll(): void {
    const entry = this.#current;
    if (entry !== null && !entry.settled) this.#cancel(entry);
  }

  #cancel(entry: Entry): void {
    entry.settled = true;
    entry.abort.abort();
    entry.reply(CANCELLED);
  }
}
