/**
 * The single session worker of one child (`session_worker.ts`): session, history, catalog,
 * discovery and selection operations (`operations.ts`) run off the read loop one at a time
 * in one slot that is answered exactly once (`operation_slot.ts`).
 *
 * @module
 */

export { SessionWorker } from "./session_worker.ts";
