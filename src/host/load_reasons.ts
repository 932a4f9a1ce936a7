/**
 * Why a tool module is not a tool, with the fix: shared by the host's
 * loader and the zero-permission describe child (which must stay lean).
 *
 * @module
 */

/** The reason for a module without a default export, with the fix. */
export const NO_DEFAULT_EXPORT =
  "no default export: a tool module must `export default defineTool({ ... })`";

/** The reason for a default export that is not a tool, with the fix. */
export const NOT_A_TOOL =
  "default export is not a defineTool() result: use `export default defineTool({ ... })`";
