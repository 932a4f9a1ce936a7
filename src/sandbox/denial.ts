/**
 * A denied permission, for the person running the host: what was denied and
 * the line to add to the tool's `permissions`. Written to stderr only; the
 * model sees just the kind (`permissionDeniedText`).
 *
 * @module
 */

/** The path, host, variable or program of Deno's `Requires <kind> access to "<what>"`, if any. */
export function deniedTarget(message: string): string | undefined {
  const match = /Requires [a-z]+ access to "((?:[^"\\]|\\.)*)"/.exec(message);
  return match?.[1];
}

/** The `permissions` keys a tool can declare (`import` is not one). */
const DECLARABLE = new Set(["read", "write", "net", "env", "run", "sys", "ffi"]);

/**
 * One stderr line for a denied permission: the tool, the kind, what was
 * denied and the fix.
 *
 * @example
 * ```ts
 * import { denialLine } from "./denial.ts";
 * const line = denialLine(
 *   { name: "weather", file: "tools/weather.ts", permission: "net" },
 *   'Requires net access to "127.0.0.1:8799", run again with the --allow-net flag',
 * );
 * console.assert(line.endsWith('add "127.0.0.1:8799" to permissions.net in tools/weather.ts'));
 * ```
 */
export function denialLine(
  tool: { readonly name: string; readonly file: string; readonly permission: string },
  message: string,
): string {
  const { name, file, permission } = tool;
  const target = deniedTarget(message);
  if (!DECLARABLE.has(permission)) {
    return `Tool ${name} was denied ${permission} access${
      target === undefined ? "" : ` to "${target}"`
    } (${file}); tool permissions cannot grant it`;
  }
  if (target === undefined) {
    return `Tool ${name} was denied ${permission} access: add what it needs to permissions.${permission} in ${file}`;
  }
  return `Tool ${name} was denied ${permission} access to "${target}": add "${target}" to permissions.${permission} in ${file}`;
}
