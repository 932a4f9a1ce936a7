/**
 * Path safety shared by the example file tools (not a tool: the leading `_`
 * keeps discovery from loading it).
 *
 * A path argument comes from the model. It is resolved against the working
 * directory, and both the lexical path and the real path (symlinks resolved)
 * must stay inside the real working directory.
 *
 * Limit: the check and the later open are separate steps, so a symlink swapped
 * in between is not caught. Under the kernel layer (Landlock, docs/tools.md)
 * the open itself is checked against the declared scope by the object it
 * resolves to; without it Deno checks the path as given.
 *
 * @module
 */

import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A path checked to be inside the working directory. */
export interface SafePath {
  /** Path relative to the working directory, with `/` separators (for results). */
  readonly relative: string;
  /** Real absolute path to open. */
  readonly real: string;
}

/**
 * Resolve `path` (relative to `cwd`, or absolute inside it) to a real path
 * inside the real `cwd`. With `mayNotExist`, a missing final component is
 * allowed (its parent must exist and be inside). `within` names `cwd` in the
 * errors (default "the working directory").
 *
 * @throws {Error} with a model-readable message when the path leaves the
 * working directory or does not exist.
 */
export async function resolveInside(
  cwd: string,
  path: string,
  options: { mayNotExist?: boolean; within?: string } = {},
): Promise<SafePath> {
  const within = options.within ?? "the working directory";
  if (path.includes("\0")) throw new Error("Path must not contain NUL characters");
  const root = await realpath(cwd);
  const lexical = resolve(cwd, path);
  if (!isInside(resolve(cwd), lexical)) {
    throw new Error(`Path is outside ${within}: ${path}`);
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ENOENT") throw error;
    if (options.mayNotExist !== true) throw new Error(`File not found: ${path}`);
    // A dangling symlink would be followed on create: refuse it rather than guess where it points.
    if (await isSymlink(lexical)) throw new Error(`Path is a broken symlink: ${path}`);
    let parent: string;
    try {
      parent = await realpath(dirname(lexical));
    } catch {
      throw new Error(`Directory not found: ${dirname(path) || "."}`);
    }
    real = join(parent, basename(lexical));
  }
  if (!isInside(root, real)) {
    throw new Error(`Path resolves outside ${within} (through a symlink): ${path}`);
  }
  const rel = relative(root, real).split(sep).join("/");
  return { relative: rel === "" ? "." : rel, real };
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
