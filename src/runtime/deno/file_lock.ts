/**
 * Exclusive file locks and the host's name, for Deno's adapter: `flock(2)` through
 * `Deno.FsFile.tryLock`, so the kernel releases a lock when its process dies (a SIGKILL
 * leaves no stale lock, only the holder's note in the file).
 *
 * @module
 */

import type { FileLock } from "../types.ts";

const encoder = new TextEncoder();

/**
 * Take an exclusive lock on `path` (created if missing) without waiting; null when another
 * process holds it. Throws when the file cannot be created or opened for writing (a
 * read-only folder).
 */
export async function tryLockFile(path: string): Promise<FileLock | null> {
  const file = await Deno.open(path, { read: true, write: true, create: true });
  let locked: boolean;
  try {
    locked = await file.tryLock(true);
  } catch (error) {
    file.close();
    throw error;
  }
  if (!locked) {
    file.close();
    return null;
  }
  return {
    previous: await readNote(file),
    async write(text) {
      await file.truncate(0);
      await file.seek(0, Deno.SeekMode.Start);
      const bytes = encoder.encode(text);
      let offset = 0;
      while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
    },
    release: () => close(file, true),
    abandon: () => close(file, false),
  };
}

/** The first 64 KiB of `file`'s text (a holder's note is one short line). */
async function readNote(file: Deno.FsFile): Promise<string> {
  const buffer = new Uint8Array(65_536);
  let size = 0;
  for (;;) {
    const read = await file.read(buffer.subarray(size));
    if (read === null || read === 0) break;
    size += read;
    if (size === buffer.length) break;
  }
  return new TextDecoder().decode(buffer.subarray(0, size));
}

/** Empty `file` (when asked), release its lock and close it; never throws. */
async function close(file: Deno.FsFile, empty: boolean): Promise<void> {
  try {
    if (empty) await file.truncate(0);
    await file.unlock();
  } catch {
    // The lock goes with the handle anyway.
  }
  try {
    file.close();
  } catch {
    // Already closed.
  }
}

/**
 * This machine's host name: `Deno.hostname()` when `--allow-sys` grants it, else the kernel's
 * (`/proc/sys/kernel/hostname`), else `$HOSTNAME`, else `unknown-host`.
 */
export function hostName(): string {
  try {
    if (Deno.permissions.querySync({ name: "sys", kind: "hostname" }).state === "granted") {
      return Deno.hostname();
    }
  } catch {
    // Fall through.
  }
  try {
    const name = Deno.readTextFileSync("/proc/sys/kernel/hostname").trim();
    if (name !== "") return name;
  } catch {
    // Not Linux, or not readable.
  }
  try {
    return Deno.env.get("HOSTNAME") || "unknown-host";
  } catch {
    return "unknown-host";
  }
}
