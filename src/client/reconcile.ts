/**
 * Message reconciliation: collect `message.reconcile` parts per message and
 * give the complete text only when `last_part` arrives. Reconciliation
 * replaces any displayed deltas, never appends to them.
 *
 * @module
 */

import type { MessageReconcileData } from "../protocol/schemas/mod.ts";
import { ProtocolViolation } from "./errors.ts";

/** A completed assistant segment. */
export interface ReconciledMessage {
  /** The run-scoped message ID. */
  messageId: string;
  /** The authoritative text (all parts concatenated in order). */
  text: string;
  /** Whether the backend marked the content partial (failure or cancellation kept a prefix). */
  partial: boolean;
}

/**
 * Collects reconciliation parts. Parts of one message must arrive in order
 * starting at 0; anything else is a {@link ProtocolViolation}.
 *
 * @example
 * ```ts
 * import { Reconciler } from "./reconcile.ts";
 * const r = new Reconciler();
 * const base = { session_id: "s", run_id: "r", message_id: "m1", partial: false };
 * console.assert(r.push({ ...base, part: 0, text: "Hel", last_part: false }) === null);
 * console.assert(r.push({ ...base, part: 1, text: "lo", last_part: true })?.text === "Hello");
 * ```
 */
export class Reconciler {
  #open = new Map<string, { parts: string[] }>();
  #completed = new Set<string>();

  /** Add one part; returns the message when it is complete, else null. */
  push(data: MessageReconcileData): ReconciledMessage | null {
    const id = data.message_id;
    if (this.#completed.has(id)) {
      throw new ProtocolViolation("Reconciliation part after the last part");
    }
    let entry = this.#open.get(id);
    if (entry === undefined) {
      entry = { parts: [] };
      this.#open.set(id, entry);
    }
    if (data.part !== entry.parts.length) {
      throw new ProtocolViolation("Reconciliation part out of order");
    }
    entry.parts.push(data.text);
    if (!data.last_part) return null;
    this.#open.delete(id);
    this.#completed.add(id);
    return { messageId: id, text: entry.parts.join(""), partial: data.partial };
  }

  /** IDs of messages still missing their last part. */
  incomplete(): string[] {
    return [...this.#open.keys()];
  }
}
