/**
 * Pending approvals: run-scoped UUIDs, 60,000 ms expiry, default deny on expiry, cancel or
 * disconnect, exactly one winning answer.
 *
 * The expiry can be shortened for tests and demos with `MAGI_APPROVAL_EXPIRY_MS` (see
 * {@link approvalExpiryFrom}); the initialization result's `limits.approval_expiry_ms` and
 * every `expires_in_ms` then report the effective value.
 *
 * @module
 */

import { APPROVAL_EXPIRY_MS } from "../../protocol/limits.ts";

/** Test/demo override of the approval expiry, in ms (reference backend only). */
export const APPROVAL_EXPIRY_ENV = "MAGI_APPROVAL_EXPIRY_MS";
/** Shortest approval expiry the override admits, ms. */
export const MIN_APPROVAL_EXPIRY_MS = 50;

/**
 * The effective approval expiry for the override value `raw`: a decimal integer clamped to
 * 50–60,000 ms; unset, empty or not a decimal integer → the protocol's 60,000 ms.
 *
 * @example
 * ```ts
 * import { approvalExpiryFrom } from "./approvals.ts";
 * console.assert(approvalExpiryFrom("300") === 300);
 * console.assert(approvalExpiryFrom(undefined) === 60_000);
 * ```
 */
export function approvalExpiryFrom(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,9}$/.test(raw)) return APPROVAL_EXPIRY_MS;
  return Math.min(APPROVAL_EXPIRY_MS, Math.max(MIN_APPROVAL_EXPIRY_MS, Number(raw)));
}

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
  /** Milliseconds left before expiry, at the time of the call (never negative). */
  remainingMs: () => number;
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
    const expiresAt = performance.now() + this.#expiryMs;
    const timer = setTimeout(() => this.#settle(approvalId, false), this.#expiryMs);
    this.#pending.set(approvalId, { ...scope, timer, resolve });
    const remainingMs = () => Math.max(0, Math.floor(expiresAt - performance.now()));
    return { approvalId, decision, remainingMs };
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
