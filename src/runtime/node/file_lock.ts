/**
 * File locks and the host's name on Node.js, which has no `flock(2)`: the lock file holds its
 * holder's note (`{"pid":…,"host":…}`), and a live process on this host named by the note
 * holds the lock. Weaker than the Deno adapter's kernel lock (two processes starting at the
 * same moment can both take it); the counterpart of `../deno/file_lock.ts`.
 *
 * @module
 */

import { open, readFile } from "node:fs/promises";
import { hostname } from "node:os";
import process from "node:process";
import type { FileLock } from "../types.ts";

function isNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ENOENT";
}

/** Whether `pid` is a running process (signal 0; EPERM means it exists). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === "EPERM";
  }
}

/**
 * Take the lock on `path` (created if missing); null when its note names another running
 * process on this host. Throws when the file cannot be created or written.
 */
export async function tryLockFile(path: string): Promise<FileLock | null> {
  let previous = "";
  try {
    previous = await readFile(path, "utf8");
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  try {
    const note = JSON.parse(previous) as { pid?: unknown; host?: unknown };
    if (
      typeof note.pid === "number" && note.pid !== process.pid && note.host === hostName() &&
      running(note.pid)
    ) return null;
  } catch {
    // No note (empty, or not JSON): free.
  }
  const file = await open(path, "a+");
  const close = async (empty: boolean) => {
    try {
      if (empty) await file.truncate(0);
    } catch {
      // Best effort.
    }
    await file.close().catch(() => {});
  };
  return {
    previous,
    async write(text) {
      await file.truncate(0);
      await file.write(text, 0);
    },
    release: () => close(true),
    abandon: () => close(false),
  };
}

/** This machine's host name. */
export function hostName(): string {
  return hostname() || "unknown-host";
}
