/**
 * Watching tool directories and config files for live reload (the runtime's `watchDirs`),
 * shared by the inspector (`inspect/tool_set.ts`) and `mcp --watch`: a change (not a mere
 * access) under a watched directory, or to a watched file, calls `onChange` once things were quiet for
 * `debounceMs`. A file is watched through its directory (editors replace a file by renaming
 * a new one over it, which a watch on the file itself would miss), so a file that does not
 * exist yet is seen when it is created.
 *
 * @module
 */

import { basename, dirname, resolve } from "node:path";
import { type DirWatch, watchDirs } from "../runtime/mod.ts";

/** What {@link watchPaths} watches. */
export interface WatchTargets {
  /** Directories watched with everything under them. */
  readonly dirs: readonly string[];
  /** Single files (watched through their directories). */
  readonly files?: readonly string[];
}

/** A running watch. */
export interface Watch {
  /** Stop watching (harmless twice). */
  close(): void;
}

/** Default quiet time after a change before `onChange` runs, ms. */
export const WATCH_DEBOUNCE_MS = 200;

/**
 * Watch `targets`; `onChange(paths)` gets the changed paths of each quiet period (absolute).
 * A directory that cannot be watched (missing, not permitted) throws here, naming it.
 */
export function watchPaths(
  targets: WatchTargets,
  onChange: (paths: readonly string[]) => void,
  debounceMs: number = WATCH_DEBOUNCE_MS,
): Watch {
  const files = new Set((targets.files ?? []).map((file) => resolve(file)));
  const dirs = targets.dirs.map((dir) => resolve(dir));
  const fileDirs = [...new Set([...files].map((file) => dirname(file)))]
    .filter((dir) => !dirs.some((watched) => dir === watched || dir.startsWith(`${watched}/`)));
  const watchers: DirWatch[] = [];
  const close = () => {
    for (const watcher of watchers.splice(0)) {
      try {
        watcher.close();
      } catch {
        // Already closed.
      }
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let changed = new Set<string>();
  // A directory's watch reports the files of that directory only: those of interest by name.
  const names = new Set([...files].map((file) => basename(file)));
  const consume = async (watcher: DirWatch, onlyFiles: boolean) => {
    try {
      for await (const event of watcher) {
        if (event.kind === "access") continue;
        const paths = onlyFiles
          ? event.paths.filter((path) => files.has(resolve(path)) || names.has(basename(path)))
          : event.paths;
        if (paths.length === 0) continue;
        for (const path of paths) changed.add(resolve(path));
        clearTimeout(timer);
        timer = setTimeout(() => {
          const batch = [...changed];
          changed = new Set();
          onChange(batch);
        }, debounceMs);
      }
    } catch {
      // Closed.
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    if (dirs.length > 0) {
      const watcher = watchDirs(dirs, true);
      watchers.push(watcher);
      void consume(watcher, false);
    }
    for (const dir of fileDirs) {
      const watcher = watchDirs([dir], false);
      watchers.push(watcher);
      void consume(watcher, true);
    }
  } catch (error) {
    close();
    throw error;
  }
  return { close };
}
