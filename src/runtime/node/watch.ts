/**
 * Directory watches on Node.js (`fs.watch`), as the async iterable of
 * {@link WatchEvent}s `Runtime.watchDirs` returns: one `fs.watch` per
 * directory, their events (every one a change: Node.js reports no mere
 * access) queued until read.
 *
 * @module
 */

import { type FSWatcher, statSync, watch } from "node:fs";
import { resolve } from "node:path";
import type { DirWatch, WatchEvent } from "../types.ts";

/** Watch `dirs`; throws (closing those already opened) when one cannot be watched. */
export function watchDirs(dirs: readonly string[], recursive: boolean): DirWatch {
  const queue: WatchEvent[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  const watchers: FSWatcher[] = [];
  const notify = () => {
    wake?.();
    wake = null;
  };
  const close = () => {
    closed = true;
    for (const watcher of watchers.splice(0)) watcher.close();
    notify();
  };
  try {
    for (const dir of dirs) {
      statSync(dir); // A missing directory throws here, as Deno.watchFs does (not every fs.watch).
      const watcher = watch(dir, { recursive }, (_type, name) => {
        queue.push({ kind: "other", paths: [name === null ? dir : resolve(dir, String(name))] });
        notify();
      });
      // A watched directory removed (or any watch failure) ends that watch, not the process.
      watcher.on("error", () => watcher.close());
      watchers.push(watcher);
    }
  } catch (error) {
    close();
    throw error;
  }
  return {
    close,
    async *[Symbol.asyncIterator]() {
      while (true) {
        const event = queue.shift();
        if (event !== undefined) {
          yield event;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => wake = resolve);
      }
    },
  };
}
