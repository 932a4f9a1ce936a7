/**
 * Declared permissions as Deno flags: for one tool's process, for the host
 * itself, and as text for the `tools` listing. Pure functions, no `Deno.*`.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import type { PermissionGrant, ToolInfo, ToolPermissions } from "../tool/define.ts";

/** Permission kinds, in flag order. */
export const PERMISSION_NAMES = ["read", "write", "net", "env", "run", "sys", "ffi"] as const;

/** One permission kind. */
export type PermissionName = typeof PERMISSION_NAMES[number];

/**
 * A flag every sandboxed `deno run` gets, granting nothing: Deno's
 * `node:child_process` (how the host spawns in its own session) runs a
 * `deno` child whose arguments carry no permission flag with the parent's
 * permissions; any explicit flag stops that. It denies one variable nobody
 * sets.
 */
export const NO_INHERIT_FLAG = "--deny-env=MAGI_TOOLS_NO_PERMISSION";

/** Kinds whose entries are file system paths (resolved against the working directory). */
const PATH_KINDS: ReadonlySet<PermissionName> = new Set(["read", "write", "ffi"]);

/** How a tool runs: `process` (default, sandboxed) or `inline`. */
export function isolationOf(tool: Pick<ToolInfo, "isolation">): "process" | "inline" {
  return tool.isolation ?? "process";
}

function entriesOf(name: PermissionName, grant: readonly string[], cwd: string): string[] {
  return grant.map((entry) => {
    if (PATH_KINDS.has(name) || (name === "run" && entry.includes("/"))) {
      return isAbsolute(entry) ? entry : resolve(cwd, entry);
    }
    return entry;
  });
}

/**
 * The `--allow-*` flags for exactly `permissions`; relative paths (and `run`
 * entries with a `/`) resolved against `cwd`. Nothing declared → no flags.
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./permissions.ts";
 * const flags = permissionFlags({ read: ["data"], net: ["127.0.0.1:8765"] }, "/work");
 * console.assert(flags.join(" ") === "--allow-read=/work/data --allow-net=127.0.0.1:8765");
 * ```
 */
export function permissionFlags(permissions: ToolPermissions | undefined, cwd: string): string[] {
  const flags: string[] = [];
  for (const name of PERMISSION_NAMES) {
    const grant: PermissionGrant | undefined = permissions?.[name];
    if (grant === true) flags.push(`--allow-${name}`);
    else if (Array.isArray(grant) && grant.length > 0) {
      flags.push(`--allow-${name}=${entriesOf(name, grant, cwd).join(",")}`);
    }
  }
  return flags;
}

/** Options of {@link denoFlagsForHost}. */
export interface HostFlagOptions {
  /** The host's working directory (relative entries resolve against it). Default: `.` resolved. */
  readonly cwd?: string;
  /** Tool directories the host reads and imports modules from. */
  readonly toolDirs?: readonly string[];
  /** Programs the host spawns: the backend command (and anything else the CLI runs). */
  readonly runCommands?: readonly string[];
  /**
   * The Deno executable tool processes and the describe child run under
   * (`Deno.execPath()`). Needed whenever there is a tool: every module is
   * first described in a zero-permission child.
   */
  readonly denoPath?: string;
  /** The npm cache (`<DENO_DIR>/npm`), readable for tool modules that import npm packages. */
  readonly npmCacheDir?: string;
}

/** What {@link denoFlagsForHost} needs from the registry. */
export interface ToolSet {
  /** The registered tools. */
  readonly tools: readonly { readonly tool: ToolInfo }[];
}

/**
 * The least `deno run` permission flags the host needs for this tool set:
 * `--allow-run` for the backend command and (when there is any tool: every
 * module is described in a zero-permission child first) the Deno executable, `--allow-read` for the tool directories and the npm cache,
 * and the union of what inline tools declare (they run with the host's
 * permissions). Process-isolated tools add nothing: their permissions live
 * in their own process. The CLI adds what it needs itself (reading `PATH`
 * to find the backend, for example).
 */
export function denoFlagsForHost(registry: ToolSet, options: HostFlagOptions = {}): string[] {
  const cwd = options.cwd ?? resolve(".");
  const union = new Map<PermissionName, true | Set<string>>();
  const add = (name: PermissionName, entries: readonly string[] | true) => {
    const have = union.get(name);
    if (have === true) return;
    if (entries === true) return void union.set(name, true);
    const set = have ?? new Set<string>();
    for (const entry of entries) set.add(entry);
    if (set.size > 0) union.set(name, set);
  };
  add("read", (options.toolDirs ?? []).map((dir) => resolve(cwd, dir)));
  if (options.npmCacheDir !== undefined) add("read", [options.npmCacheDir]);
  add("run", options.runCommands ?? []);
  if (registry.tools.length > 0 && options.denoPath !== undefined) add("run", [options.denoPath]);
  for (const { tool } of registry.tools) {
    if (isolationOf(tool) !== "inline") continue;
    for (const name of PERMISSION_NAMES) {
      const grant = tool.permissions?.[name];
      if (grant === true) add(name, true);
      else if (Array.isArray(grant)) add(name, entriesOf(name, grant, cwd));
    }
  }
  const flags = ["--no-prompt"];
  for (const name of PERMISSION_NAMES) {
    const grant = union.get(name);
    if (grant === true) flags.push(`--allow-${name}`);
    else if (grant !== undefined) flags.push(`--allow-${name}=${[...grant].join(",")}`);
  }
  return flags;
}

/** A tool's sandbox settings as plain data, for JSON listings. */
export interface ToolSandboxInfo {
  /** `process` or `inline`. */
  readonly isolation: "process" | "inline";
  /** Memory cap in MiB, or null for none. */
  readonly memoryMb: number | null;
  /** Each declared kind: `true` (all) or its list; undeclared kinds are absent (denied). */
  readonly permissions: Readonly<Partial<Record<PermissionName, true | readonly string[]>>>;
}

/** {@link ToolSandboxInfo} of one tool (declared entries as written, not resolved). */
export function toolSandboxInfo(tool: ToolInfo): ToolSandboxInfo {
  const permissions: Partial<Record<PermissionName, true | readonly string[]>> = {};
  for (const name of PERMISSION_NAMES) {
    const grant = tool.permissions?.[name];
    if (grant === true) permissions[name] = true;
    else if (Array.isArray(grant) && grant.length > 0) permissions[name] = [...grant];
  }
  return { isolation: isolationOf(tool), memoryMb: tool.memoryMb ?? null, permissions };
}

/** Options of {@link formatToolPermissions}. */
export interface FormatPermissionsOptions {
  /**
   * Whether the runtime runs tools in sandboxed processes; default true
   * (Deno). False (Node.js): every tool runs inline and its permissions are
   * not enforced, which the line says.
   */
  readonly processIsolation?: boolean;
}

/**
 * One line for the `tools` listing, e.g.
 * `process, memory 128 MiB; read=.; net=127.0.0.1:8765`,
 * `inline (host permissions); no permissions`, or on Node.js (no process
 * sandbox) `inline (permissions not enforced on Node.js); net=127.0.0.1:8765`.
 */
export function formatToolPermissions(
  tool: ToolInfo,
  options: FormatPermissionsOptions = {},
): string {
  const info = toolSandboxInfo(tool);
  const where = options.processIsolation === false
    ? "inline (permissions not enforced on Node.js)"
    : info.isolation === "inline"
    ? "inline (host permissions)"
    : `process${info.memoryMb === null ? "" : `, memory ${info.memoryMb} MiB`}`;
  const grants = Object.entries(info.permissions).map(([name, grant]) =>
    grant === true ? `${name}=all` : `${name}=${grant.join(",")}`
  );
  return `${where}; ${grants.length === 0 ? "no permissions" : grants.join("; ")}`;
}

/**
 * The one stderr warning for tools that declare permissions where nothing
 * enforces them (Node.js), or null when none does.
 *
 * @example
 * ```ts
 * import { unenforcedPermissionsWarning } from "./permissions.ts";
 * const tools = [{ name: "weather", description: "", effect: "read" as const,
 *   permissions: { net: ["127.0.0.1:8799"] } }];
 * console.assert(unenforcedPermissionsWarning(tools, "node")?.includes("weather"));
 * ```
 */
export function unenforcedPermissionsWarning(
  tools: readonly ToolInfo[],
  runtime: string,
): string | null {
  const names = tools.filter((tool) => Object.keys(toolSandboxInfo(tool).permissions).length > 0)
    .map((tool) => tool.name);
  if (names.length === 0) return null;
  return `magi-tools: on ${
    runtime === "node" ? "Node.js" : runtime
  } every tool runs inline in the host process: the declared permissions of ${
    names.join(", ")
  } are not enforced (run under Deno for the process sandbox)`;
}
