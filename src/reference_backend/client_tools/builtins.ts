/**
 * Names of the reference backend's built-in tools. A client tool may not take one of
 * these names (`invalid_params` at initialization). The scripted provider only simulates
 * them as activities: nothing is executed.
 *
 * @module
 */

/** Built-in tool names, reserved against client tools. */
export const BUILTIN_TOOL_NAMES = ["shell", "edit", "apply_patch", "builtin_search"] as const;

/** A built-in tool name. */
export type BuiltinToolName = typeof BUILTIN_TOOL_NAMES[number];

/** Whether `name` is a built-in tool name. */
export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (BUILTIN_TOOL_NAMES as readonly string[]).includes(name);
}
