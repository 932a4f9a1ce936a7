/**
 * MCP tool names as host tool names: `<prefix><tool>` made to fit
 * `^[A-Za-z][A-Za-z0-9_-]{0,63}$`, and `include`/`exclude` globs.
 *
 * @module
 */

/** The host's tool name grammar. */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * The host name of server tool `tool` under `prefix`: characters outside
 * `[A-Za-z0-9_-]` become `_`; a name not starting with a letter gets `t_`
 * in front; a name over 64 bytes keeps its first 55 characters and gets `_`
 * and 8 hex digits of its hash (so two long names stay apart).
 *
 * @example
 * ```ts
 * import { hostToolName } from "./names.ts";
 * console.assert(hostToolName("fs_", "read.file") === "fs_read_file");
 * ```
 */
export function hostToolName(prefix: string, tool: string): string {
  let name = `${prefix}${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (!/^[A-Za-z]/.test(name)) name = `t_${name}`;
  if (name.length > 64) name = `${name.slice(0, 55)}_${fnv1a(`${prefix}${tool}`)}`;
  return name;
}

/** Whether `name` matches glob `pattern` (`*` any run of characters, `?` one character). */
export function globMatch(pattern: string, name: string): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(
    /\?/g,
    ".",
  );
  return new RegExp(`^${source}$`).test(name);
}

/** Whether server tool `name` is kept by `include` (absent: all) and `exclude`. */
export function selected(
  name: string,
  include: readonly string[] | undefined,
  exclude: readonly string[],
): boolean {
  if (include !== undefined && !include.some((pattern) => globMatch(pattern, name))) return false;
  return !exclude.some((pattern) => globMatch(pattern, name));
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
