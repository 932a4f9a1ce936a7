/**
 * The working directories of a batch's items, checked before anything runs.
 *
 * An item's `cwd` is relative to the batch's `--cwd` and must stay inside it: it is resolved
 * against `--cwd` and compared by real path (symlinks resolved), so an absolute path, `..` and
 * a symlink that leads out are all refused alike, as a usage error naming the input line, the
 * item and its `cwd`. An absolute path that leads inside `--cwd` is accepted.
 *
 * Every directory an item runs in then gets the host-input checks of the batch's own `--cwd`
 * ({@link checkItemScopes}): the tools' relative `read`/`write` scopes resolve against the
 * item's directory there, so a scope that is harmless in `--cwd` can reach the describe cache
 * or a host input from an item's `cwd`. Before each item, its directory must still resolve to
 * the real path checked ({@link cwdChanged}), or the batch stops.
 *
 * @example
 * ```ts
 * import { isInside } from "./item_cwd.ts";
 * console.assert(isInside("/p/repos/a", "/p") && isInside("/p", "/p"));
 * console.assert(!isInside("/", "/p") && !isInside("/p2", "/p"));
 * ```
 *
 * @module
 */

import { isAbsolute, relative, resolve, sep } from "node:path";
import { ToolLoadError, UsageError } from "../errors/mod.ts";
import { checkToolScopesAt, type PreparedToolDirs } from "../toolset/discovery.ts";
import { isDirectory, realPath } from "../runtime/mod.ts";
import type { BatchItem } from "./input.ts";

/** Whether `path` is `root` or lies inside it (both absolute, already real paths). */
export function isInside(path: string, root: string): boolean {
  const rest = relative(root, path);
  return rest === "" || (rest !== ".." && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}

/** One directory items run in, with the first item that runs there (for messages). */
export interface ItemCwd {
  /** Real path, inside the batch's `--cwd`. */
  readonly cwd: string;
  /** The first item of the input with this directory. */
  readonly item: BatchItem;
}

/** Where an item is in the input, for messages: `item ID (FILE:LINE)`. */
export function itemLabel(item: BatchItem, input: string): string {
  return `item ${item.id} (${input}:${item.line})`;
}

/**
 * The real working directory of each item with a `cwd`, by id.
 *
 * @throws {UsageError} for a `cwd` that is not a directory or lies outside `root` (the batch's
 * `--cwd`, a real path), naming the input line, the item and its `cwd`.
 */
export async function resolveItemCwds(
  items: readonly BatchItem[],
  options: { root: string; input: string },
): Promise<Map<string, string>> {
  const { root, input } = options;
  const cwds = new Map<string, string>();
  for (const item of items) {
    if (item.cwd === undefined) continue;
    const where = `${input}:${item.line}: item ${item.id}: cwd ${JSON.stringify(item.cwd)}`;
    const path = resolve(root, item.cwd);
    if (!(await isDirectory(path))) {
      throw new UsageError(`Batch input cwd is not a directory: ${where}`);
    }
    const real = await realPath(path);
    if (!isInside(real, root)) {
      throw new UsageError(
        `Batch input cwd is outside --cwd: ${where} is ${real}, outside ${root}; ` +
          "an item's cwd must be a directory inside --cwd",
      );
    }
    cwds.set(item.id, real);
  }
  return cwds;
}

/** The distinct directories of `cwds` other than `root`, each with its first item. */
export function distinctItemCwds(
  items: readonly BatchItem[],
  cwds: ReadonlyMap<string, string>,
  root: string,
): ItemCwd[] {
  const seen = new Map<string, ItemCwd>();
  for (const item of items) {
    const cwd = cwds.get(item.id);
    if (cwd === undefined || cwd === root || seen.has(cwd)) continue;
    seen.set(cwd, { cwd, item });
  }
  return [...seen.values()];
}

/** What {@link checkItemScopes} checks. */
export interface ItemScopeCheck {
  /** The tool directories, as loaded. */
  readonly toolDirs: readonly string[];
  /** The tool directories listed and described (nothing imported yet). */
  readonly prepared: PreparedToolDirs;
  /** The config files in use (host inputs). */
  readonly configFiles: readonly string[];
  /** The batch's `--cwd`. */
  readonly root: string;
  /** The batch input file, for messages. */
  readonly input: string;
}

/**
 * The refusal of the first process tool whose scopes, resolved against an item's directory,
 * overlap a host input there (as the load refuses them for `--cwd`), or null. Nothing is
 * checked when the tools are already refused for `--cwd` itself: the load reports that.
 */
export async function checkItemScopes(
  dirs: readonly ItemCwd[],
  check: ItemScopeCheck,
): Promise<string | null> {
  if (dirs.length === 0) return null;
  const at = (cwd: string) =>
    checkToolScopesAt(check.toolDirs, check.prepared, { cwd, configFiles: check.configFiles });
  try {
    await at(check.root);
  } catch (error) {
    if (error instanceof ToolLoadError) return null;
    throw error;
  }
  for (const { cwd, item } of dirs) {
    try {
      await at(cwd);
    } catch (error) {
      if (!(error instanceof ToolLoadError)) throw error;
      return `Batch ${itemLabel(item, check.input)} cannot run in its cwd ${cwd}: ${error.message}`;
    }
  }
  return null;
}

/**
 * Why an item's directory (a real path, checked before the batch started) must not be used
 * now, or null: it no longer resolves to itself — a component was replaced by a symlink (which
 * could lead out of `--cwd`, past every check) or it was removed. `batch` looks again before
 * each item starts a turn.
 */
export async function cwdChanged(cwd: string): Promise<string | null> {
  let real: string;
  try {
    real = await realPath(cwd);
  } catch (error) {
    return `it cannot be resolved any more (${error instanceof Error ? error.message : error})`;
  }
  return real === cwd ? null : `it now resolves to ${real}`;
}
