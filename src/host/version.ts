/**
 * The package version, from `deno.json`.
 *
 * @module
 */

import meta from "../../deno.json" with { type: "json" };

/** The package version. */
export const PACKAGE_VERSION: string = meta.version;
