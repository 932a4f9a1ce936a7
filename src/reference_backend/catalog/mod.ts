/**
 * Models and the selection: the catalog cache format (`catalog_cache.ts`), one bounded scan
 * of the caches (`catalog_scan.ts`), `model.catalog` pages over a sticky snapshot
 * (`catalog_pages.ts`), `model.refresh` from a local source (`refresh.ts`) and the child's
 * provider/model/effort selection with its revision (`selection_state.ts`). `providers.ts` holds the
 * known providers and `safeName` (used by startup and the status object too; it imports nothing).
 *
 * @module
 */

export { CatalogState } from "./catalog_pages.ts";
export { scanCatalog } from "./catalog_scan.ts";
export { refreshCatalog } from "./refresh.ts";
export { SelectionState } from "./selection_state.ts";
