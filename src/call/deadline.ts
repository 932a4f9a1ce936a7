/**
 * A call's deadline and grace as the host keeps them: the part of the backend's bounds
 * (`deadline_ms`, `cancel_grace_ms`) kept back so the answer still arrives in time.
 *
 * @module
 */

/** The longest timer delay, ms: timers overflow past 2^31-1. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The most the host keeps back from the backend's bounds for the answer's way back, ms. */
export const DELIVERY_MARGIN_MS = 500;

/**
 * The part of a backend bound (`cancel_grace_ms`, `deadline_ms`) kept back
 * for delivering the answer: half of it, at most {@link DELIVERY_MARGIN_MS}.
 */
export function deliveryMarginMs(boundMs: number): number {
  return Math.min(Math.max(0, boundMs) / 2, DELIVERY_MARGIN_MS);
}

/**
 * The grace a signalled tool gets: `cancel_grace_ms` minus the delivery
 * margin. The backend counts its grace from emitting `client.tool.cancel`;
 * the host's starts later and the answer still has to travel, so an
 * abandoned or killed tool's `cancelled` answer arrives within the backend's
 * grace instead of just after it finalized the call.
 */
export function answerGraceMs(cancelGraceMs: number): number {
  return Math.max(0, cancelGraceMs - deliveryMarginMs(cancelGraceMs));
}
