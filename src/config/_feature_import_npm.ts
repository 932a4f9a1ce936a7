/**
 * `_feature_import.ts` for the npm package: npm-build.ts bundles this file in its place, so
 * esbuild sees literal imports and puts each feature into its own chunk (loaded on first use,
 * as under Deno). Never imported by the Deno code.
 *
 * @module
 */

import type { importFeature as DenoImport } from "./_feature_import.ts";

/** Import the entry module of `feature` (same contract as `_feature_import.ts`). */
export const importFeature: typeof DenoImport = (feature) =>
  feature === "mcp" ? import("../mcp/mod.ts") : import("../openapi/mod.ts");
