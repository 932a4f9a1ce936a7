/**
 * Tool names a `magi-code` backend reserves for its built-in tools. The
 * protocol rejects a client tool with such a name with a bare
 * `invalid_params` (`client-tools.md`); the host checks first and says which
 * name clashes and what the reserved names are.
 *
 * @module
 */

/** The backend's built-in tool names: a client tool must not use them. */
export const RESERVED_TOOL_NAMES: readonly string[] = Object.freeze([
  "shell",
  "edit",
  "apply_patch",
  "builtin_search",
]);
