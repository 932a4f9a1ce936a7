/**
 * Sessions on disk and the child's attachment: JSONL session files (`session_store.ts`), writer
 * leases (`leases.ts`), the attachment with lazy handles (`sessions.ts`), the bounded inventory
 * scan of `$MC_HOME/sessions` (`inventory.ts`) under `session.list` snapshots (`listing.ts`)
 * and `session.discover` pages (`discover_pages.ts`), and `history.page` snapshots
 * (`history_pages.ts`) over the presentation projection (`history_projection.ts`).
 *
 * @module
 */

export { discoverPage } from "./discover_pages.ts";
export { historyPage } from "./history_pages.ts";
export { readInventory } from "./inventory.ts";
export { SessionListing } from "./listing.ts";
export { Sessions } from "./sessions.ts";
