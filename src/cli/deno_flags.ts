/**
 * `tools --deno-flags`: the least `deno run` permission flags `run` needs for
 * a tool set and a backend command: what the host needs for its tools
 * ({@link hostDenoFlags}: tool directories, the backend and Deno executables,
 * inline tools' permissions) plus what the CLI itself reads.
 *
 * @module
 */

import type { ToolSet } from "../host/sandbox/mod.ts";
import { hostDenoFlags, PERMISSION_NAMES, type PermissionName } from "../host/sandbox/mod.ts";
import { getEnv } from "../runtime/mod.ts";
import type { AgentCommand } from "./agent.ts";

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
}

/**
 * The flags for `deno run` of `mod.ts run` (`--no-prompt` first). Beyond
 * {@link hostDenoFlags}: `--allow-env` for `MAGI_CODE_AGENT` and `PATH`, and,
 * when the backend was looked up on `PATH` (found there or not), read access
 * to exactly the `magi-code` candidates on `PATH`, so the lookup sees the
 * same answer. Not included, because they depend on `run`'s own options:
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
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const grants = parseGrants(host);
  add(grants, "env", CLI_ENV);
  if (options.agent.source === "path" || options.agent.source === "reference") {
    const path = options.path ?? getEnv("PATH") ?? "";
    // Deno's flag lists are comma-separated: a directory with a comma cannot be granted.
    const candidates = path.split(":").filter((dir) => dir !== "" && !dir.includes(","))
      .map((dir) => `${dir}/magi-code`);
    add(grants, "read", candidates);
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
