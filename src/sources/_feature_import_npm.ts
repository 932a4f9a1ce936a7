/**
 * `_feature_import.ts` for the npm package: npm-build.ts bundles this file in its place, so
 * esbuild sees literal imports and puts each feature into its own chunk (loaded on first use,
 * as under Deno). A chunk imports the feature's npm packages, optional peers of the package: a
 * missing one fails only here, on first use (`features.ts` names the install command). Never
 * imported by the Deno code; same signature as `_feature_import.ts` (`tests/npm/npm_package_test.ts`
 * builds and runs the package).
 *
 * @module
 */

/** Import the entry module of `feature`. */
export function importFeature(feature: "mcp" | "openapi"): Promise<unknown> {
  return feature === "mcp" ? import("../mcp/mod.ts") : import("../openapi/mod.ts");
}
