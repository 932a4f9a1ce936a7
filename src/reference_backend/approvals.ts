/**
 * Pending approvals: run-scoped UUIDs, 60,000 ms expiry, default deny on expiry, cancel or
 * disconnect, exactly one winning answer.
 *
 * @module
 */

import { APPROVAL_EXPIRY_MS } from "../protocol/limits.ts";

interface Pending {
  sessionId: string;
  runId: string;
  timer: ReturnType<typeof setTimeout>;
  resolve: (allow: boolean) => void;
}

/** One pending approval as created by {@link ApprovalBook.request}. */
export interface ApprovalTicket {
  /** The approval ID sent in `approval.requested`. */
  approvalId: string;
  /** Resolves true on an allow answer, false on deny, expiry or cancellation. */
  decision: Promise<boolean>;
}

/** Every pending approval of the child. */
export class ApprovalBook {
  readonly #pending = new Map<string, Pending>();
  readonly #expiryMs: number;

  /** Create a book whose approvals expire after `expiryMs`. */
  constructor(options: { expiryMs?: number } = {}) {
    this.#expiryMs = options.expiryMs ?? APPROVAL_EXPIRY_MS;
  }

  /** Expiry of new approvals, ms. */
  get expiryMs(): number {
    return this.#expiryMs;
  }

  /** Open an approval for a run; it denies itself on expiry. */
  request(scope: { sessionId: string; runId: string }): ApprovalTicket {
    const approvalId = crypto.randomUUID();
    let resolve!: (allow: boolean) => void;
    const decision = new Promise<boolean>((r) => resolve = r);
    const timer = setTimeout(() => this.#settle(approvalId, false), this.#expiryMs);
    this.#pending.set(approvalId, { ...scope, timer, resolve });
    return { approvalId, decision };
  }

  /** Record an answer; false (→ `stale_approval`) unless it is the first for a live approval. */
  answer(scope: { sessionId: string; runId: string; approvalId: string }, allow: boolean): boolean {
    const pending = this.#pending.get(scope.approvalId);
    if (pending === undefined) return false;
    if (pending.sessionId !== scope.sessionId || pending.runId !== scope.runId) return false;
    return this.#settle(scope.approvalId, allow);
  }

  /** Deny every pending approval of `runId` (cancel, failure, disconnect). */
  denyRun(runId: string): void {
    for (const [id, pending] of this.#pending) {
      if (pending.runId === runId) this.#settle(id, false);
    }
  }

  #settle(approvalId: string, allow: boolean): boolean {
    const pending = this.#pending.get(approvalId);
    if (pending === undefined) return false;
    this.#pending.delete(approvalId);
    clearTimeout(pending.timer);
    pending.resolve(allow);
    return true;
  }
}
