/**
 * The one non-literal dynamic import of each optional feature (see `features.ts`). The URL is
 * computed, so `deno run` leaves the feature's modules and npm packages out of the module graph
 * it builds (and locks, and downloads) at startup; the npm build swaps this file for
 * `_feature_import_npm.ts`, whose literal imports esbuild can bundle.
 *
 * @module
 */

/** Where each feature's modules start, relative to this file. */
const ENTRY = { mcp: "../mcp/mod.ts", openapi: "../openapi/mod.ts" } as const;

/** Import the entry module of `feature`. */
export function importFeature(feature: keyof typeof ENTRY): Promise<unknown> {
  const url = new URL(ENTRY[feature], import.meta.url).href;
  return import(url);
}
