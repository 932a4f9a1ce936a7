/**
 * Where the host keeps its own per-user state: never in a user's project.
 *
 * | kind     | Linux and others                         | macOS                            | Windows                  |
 * | -------- | ---------------------------------------- | -------------------------------- | ------------------------ |
 * | `cache`  | `$XDG_CACHE_HOME/magi-tools`, else `~/.cache/magi-tools`       | `~/Library/Caches/magi-tools`    | `%LOCALAPPDATA%\magi-tools\cache`  |
 * | `config` | `$XDG_CONFIG_HOME/magi-tools`, else `~/.config/magi-tools`     | `~/Library/Application Support/magi-tools` | `%APPDATA%\magi-tools` |
 * | `state`  | `$XDG_STATE_HOME/magi-tools`, else `~/.local/state/magi-tools` | `~/Library/Application Support/magi-tools/state` | `%LOCALAPPDATA%\magi-tools\state` |
 *
 * The adapters' `userDir(kind)` reads the variables only when the process
 * already may read them (`getEnvIfGranted`): without that permission (for example under
 * `--allow-env=MAGI_CODE_AGENT,PATH`) the directory is unknown (`null`) and
 * the caller goes without, never falling back to the working directory. An
 * XDG variable that is not an absolute path is ignored, as the XDG spec says.
 *
 * @example
 * ```ts
 * import { userDirFrom } from "./user_dirs.ts";
 * const env = (name: string) => name === "HOME" ? "/home/ada" : undefined;
 * const dir = userDirFrom("cache", { env, os: "linux" });
 * if (dir !== "/home/ada/.cache/magi-tools") throw new Error(String(dir));
 * ```
 *
 * @module
 */

import { join } from "node:path";

/** A kind of per-user directory. */
export type UserDirKind = "cache" | "config" | "state";

/** Where {@link userDirFrom} reads: an environment and an operating system. */
export interface UserDirSource {
  /** Reads one variable; undefined when unset or not readable. */
  readonly env: (name: string) => string | undefined;
  /** Operating system (`Deno.build.os` names: `linux`, `darwin`, `windows`, …). */
  readonly os: string;
}

const APP = "magi-tools";

/** The host's per-user directory of `kind` (not created), or null when it cannot be known. */
export function userDirFrom(kind: UserDirKind, source: UserDirSource): string | null {
  const read = (name: string): string | undefined => nonEmpty(source.env(name));
  const os = source.os;
  if (os === "windows") {
    const base = read(kind === "config" ? "APPDATA" : "LOCALAPPDATA");
    if (base === undefined) return null;
    return kind === "config" ? join(base, APP) : join(base, APP, kind);
  }
  const home = read("HOME");
  if (os === "darwin") {
    if (home === undefined) return null;
    if (kind === "cache") return join(home, "Library", "Caches", APP);
    const support = join(home, "Library", "Application Support", APP);
    return kind === "config" ? support : join(support, "state");
  }
  const [variable, fallback] = XDG[kind];
  const xdg = read(variable);
  if (xdg !== undefined && xdg.startsWith("/")) return join(xdg, APP);
  return home === undefined ? null : join(home, ...fallback, APP);
}

const XDG: Record<UserDirKind, readonly [string, readonly string[]]> = {
  cache: ["XDG_CACHE_HOME", [".cache"]],
  config: ["XDG_CONFIG_HOME", [".config"]],
  state: ["XDG_STATE_HOME", [".local", "state"]],
};

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
