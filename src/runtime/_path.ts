/**
 * Where a shell would look for a command: the one path search of both
 * adapters' `spawnChild` and of `findOnPath`.
 *
 * @example
 * ```ts
 * import { pathCandidates } from "./_path.ts";
 * console.assert(pathCandidates("git", "/usr/bin::/bin").join() === "/usr/bin/git,/bin/git");
 * console.assert(pathCandidates("./x", "/bin", "/work")[0] === "/work/./x");
 * ```
 *
 * @module
 */

import type { FileInfo } from "./types.ts";

/**
 * The paths `command` may stand at: a command containing `/` as given (resolved against
 * `cwd` when given and relative), else each non-empty directory of `pathVar` (`PATH`).
 */
export function pathCandidates(command: string, pathVar = "", cwd?: string): string[] {
  if (command.includes("/")) {
    return [cwd === undefined || command.startsWith("/") ? command : `${cwd}/${command}`];
  }
  return pathVar.split(":").filter((dir) => dir !== "").map((dir) => `${dir}/${command}`);
}

/** Whether `info` is of a file someone may execute. */
export function isExecutableFile(info: FileInfo): boolean {
  return info.isFile && info.mode !== null && (info.mode & 0o111) !== 0;
}
