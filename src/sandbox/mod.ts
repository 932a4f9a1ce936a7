/**
 * The tool sandbox's public surface for the CLI: the host's least `deno run`
 * flags for a tool set, and each tool's permissions for the `tools` listing.
 * Pure apart from reading the running `deno`'s path (`runtimeExecutable()`); the
 * Deno-only process runner is not imported here.
 *
 * @module
 */

import { runtimeExecutable, runtimeName } from "../runtime/mod.ts";
import { denoFlagsForHost, type HostFlagOptions, type ToolSet } from "./permissions.ts";

export {
  denoFlagsForHost,
  type FormatPermissionsOptions,
  formatToolPermissions,
  type HostFlagOptions,
  isolationOf,
  PERMISSION_NAMES,
  permissionFlags,
  type PermissionName,
  type ToolSandboxInfo,
  toolSandboxInfo,
  type ToolSet,
  unenforcedPermissionsWarning,
} from "./permissions.ts";
export type { ToolLog } from "./log_buffer.ts";

/**
 * {@link denoFlagsForHost} with the Deno executable filled in from the
 * running runtime (`runtimeExecutable()`, when under Deno and not given).
 *
 * @example
 * ```ts ignore
 * const flags = hostDenoFlags(registry, { toolDirs: ["tools"], runCommands: [agent.command] });
 * console.log(flags.join(" ")); // --no-prompt --allow-read=/work/tools --allow-run=magi-code,/usr/bin/deno
 * ```
 */
export function hostDenoFlags(registry: ToolSet, options: HostFlagOptions = {}): string[] {
  const denoPath = options.denoPath ??
    (runtimeName() === "deno" ? runtimeExecutable() : undefined);
  return denoFlagsForHost(registry, {
    ...options,
    ...(denoPath === undefined ? {} : { denoPath }),
  });
}
