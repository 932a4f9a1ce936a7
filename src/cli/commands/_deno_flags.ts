/**
 * `tools --deno-flags`: the least `deno run` permission flags `run` needs for
 * a tool set and a backend command: what the host needs for its tools
 * ({@link hostDenoFlags}: tool directories, the backend and Deno executables,
 * inline tools' permissions) plus what the CLI itself reads.
 *
 * @module
 */

import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { ToolSet } from "../../sandbox/mod.ts";
import { hostDenoFlags, PERMISSION_NAMES, type PermissionName } from "../../sandbox/mod.ts";
import { currentDir, getEnv, runtimeExecutable } from "../../runtime/mod.ts";
import type { AgentCommand } from "../../run/agent.ts";

/** Environment variables the CLI reads to pick the backend. */
export const CLI_ENV: readonly string[] = Object.freeze(["MAGI_CODE_AGENT", "PATH"]);

/** Options of {@link cliDenoFlags}. */
export interface CliFlagOptions {
  /** Tool directories `run` loads (`--tools`). */
  readonly toolDirs: readonly string[];
  /** The backend command `run` would start, as resolved now. */
  readonly agent: AgentCommand;
  /** Working directory relative paths resolve against; default the current one. */
  readonly cwd?: string;
  /** `PATH` as `run` will see it; default the current `PATH`. */
  readonly path?: string;
  /**
   * The `setsid(1)` executable children are started through (for Ctrl-C
   * isolation), or null for none; default the first of `/usr/bin/setsid`,
   * `/bin/setsid` that exists and is executable.
   */
  readonly setsid?: string | null;
  /**
   * The programs that contain a tool process's own processes (`unshare(1)`, `setpriv(1)`:
   * docs/tools.md, "Memory and the processes a tool starts"), granted when tools run in
   * processes; default those of {@link findContainmentPrograms}.
   */
  readonly containment?: readonly string[];
  /** The Deno executable tool processes run under; default the running one. */
  readonly denoPath?: string;
}

/**
 * Where `setsid(1)` is on this machine, or null (the first executable candidate).
 * Checked with `stat` (its mode bits), which needs only read access to the path: an
 * `access(2)` probe would need `--allow-sys` under Deno, which the `start` task and the
 * printed flags do not grant, and a refused probe would read as "no setsid".
 */
export function findSetsid(): string | null {
  return firstExecutable(["/usr/bin/setsid", "/bin/setsid"]);
}

/** `unshare(1)` and `setpriv(1)` where they exist (Linux), checked as {@link findSetsid} does. */
export function findContainmentPrograms(): string[] {
  return [
    firstExecutable(["/usr/bin/unshare", "/bin/unshare"]),
    firstExecutable(["/usr/bin/setpriv", "/bin/setpriv"]),
  ].filter((path): path is string => path !== null);
}

function firstExecutable(paths: readonly string[]): string | null {
  for (const path of paths) {
    try {
      const info = statSync(path);
      if (info.isFile() && (info.mode & 0o111) !== 0) return path;
    } catch {
      // Missing, or not readable under the current permissions.
    }
  }
  return null;
}

/**
 * The flags for `deno run` of `mod.ts run` (`--no-prompt` first). Beyond
 * {@link hostDenoFlags}: `--allow-env` for `MAGI_CODE_AGENT` and `PATH`, and,
 * when the backend was looked up on `PATH` (found there or not), read access
 * to exactly the `magi-code` candidates on `PATH`, so the lookup sees the
 * same answer. When a `setsid(1)` exists: `--allow-run` of it and read
 * access to it and to the programs started through it (the backend command,
 * found as `run` finds it, and the Deno executable when tools run in
 * processes), so children start in their own session and a terminal's Ctrl-C
 * reaches only the host. Not included, because they depend on `run`'s own options:
 * `--cwd DIR` needs `--allow-read=DIR`, `--last-message FILE` needs
 * `--allow-write=FILE`.
 *
 * @example
 * ```ts ignore
 * const flags = cliDenoFlags(registry, { toolDirs: ["tools"], agent });
 * // ["--no-prompt", "--allow-read=/work/tools", "--allow-env=MAGI_CODE_AGENT,PATH", "--allow-run=…"]
 * ```
 */
export function cliDenoFlags(registry: ToolSet, options: CliFlagOptions): string[] {
  const host = hostDenoFlags(registry, {
    toolDirs: options.toolDirs,
    runCommands: [options.agent.command],
    ...(options.denoPath === undefined ? {} : { denoPath: options.denoPath }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const grants = parseGrants(host);
  add(grants, "env", CLI_ENV);
  const path = options.path ?? getEnv("PATH") ?? "";
  const setsid = options.setsid === undefined ? findSetsid() : options.setsid;
  if (setsid !== null) {
    // The spawner checks that setsid and each command exist before wrapping them.
    const denoPath = options.denoPath ?? runtimeExecutable();
    const runs = grants.get("run");
    const toolProcesses = runs === true || runs?.has(denoPath) === true;
    add(grants, "run", [setsid]);
    add(grants, "read", [
      setsid,
      ...commandCandidates(options.agent.command, { cwd: options.cwd ?? currentDir(), path }),
      ...(toolProcesses ? [denoPath] : []),
    ]);
  }
  const denoPath = options.denoPath ?? runtimeExecutable();
  const runs = grants.get("run");
  if (runs === true || runs?.has(denoPath) === true) {
    const containment = options.containment ?? findContainmentPrograms();
    add(grants, "run", containment);
    add(grants, "read", containment);
  }
  if (options.agent.source === "path" || options.agent.source === "reference") {
    add(grants, "read", commandCandidates("magi-code", { cwd: "/", path }));
  }
  const flags = ["--no-prompt"];
  for (const name of PERMISSION_NAMES) {
    const grant = grants.get(name);
    if (grant === true) flags.push(`--allow-${name}`);
    else if (grant !== undefined && grant.size > 0) {
      flags.push(`--allow-${name}=${[...grant].join(",")}`);
    }
  }
  return flags;
}

/** Where the spawner looks for `command`: itself when it has a slash, else each `PATH` entry. */
function commandCandidates(command: string, where: { cwd: string; path: string }): string[] {
  if (command.includes("/")) return [isAbsolute(command) ? command : resolve(where.cwd, command)];
  // Deno's flag lists are comma-separated: a directory with a comma cannot be granted.
  return where.path.split(":").filter((dir) => dir !== "" && !dir.includes(","))
    .map((dir) => `${dir}/${command}`);
}

type Grants = Map<PermissionName, true | Set<string>>;

function parseGrants(flags: readonly string[]): Grants {
  const grants: Grants = new Map();
  for (const flag of flags) {
    const match = /^--allow-([a-z]+)(?:=(.*))?$/.exec(flag);
    if (match === null) continue;
    const name = match[1] as PermissionName;
    if (!PERMISSION_NAMES.includes(name)) continue;
    if (match[2] === undefined) grants.set(name, true);
    else add(grants, name, match[2].split(","));
  }
  return grants;
}

function add(grants: Grants, name: PermissionName, entries: readonly string[]): void {
  const have = grants.get(name);
  if (have === true) return;
  const set = have ?? new Set<string>();
  for (const entry of entries) if (entry !== "") set.add(entry);
  grants.set(name, set);
}
