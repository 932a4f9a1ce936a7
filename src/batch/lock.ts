/**
 * The lock of a batch output folder: `DIR/batch.lock`, held by one `batch` process at a time
 * (an OS file lock on Deno, which the kernel drops when its process dies) and holding its
 * holder's note — PID, host and start time — for the message a second batch gets.
 *
 * - Held by a running batch: the second one is a usage error (exit 2) naming its PID and host.
 * - Left behind by a batch on this host that was killed (the note is there, the lock is
 *   free): taken over, and stderr says so.
 * - Left behind by a batch on another host (a shared volume): refused, since this host cannot
 *   tell whether it still runs; the message says how to break the lock.
 * - Released (the note emptied) when the batch ends, also after Ctrl-C or SIGTERM.
 *
 * @module
 */

import {
  type FileLock,
  hostName,
  processId,
  readTextFile,
  tryLockFile,
  writeStderrLine,
} from "../runtime/mod.ts";
import { UsageError } from "../errors/mod.ts";

/** Name of the lock file in an output folder. */
export const LOCK_FILE = "batch.lock";

/** What the lock file says about its holder. */
export interface LockNote {
  /** The holder's process ID. */
  pid: number;
  /** The holder's host name. */
  host: string;
  /** When it took the lock (ISO 8601). */
  started_at: string;
}

/** The note in `text`, or null when there is none (released, or not a note). */
export function parseNote(text: string): LockNote | null {
  try {
    const note = JSON.parse(text) as Partial<LockNote>;
    if (typeof note.pid !== "number" || typeof note.host !== "string") return null;
    return { pid: note.pid, host: note.host, started_at: String(note.started_at ?? "?") };
  } catch {
    return null;
  }
}

function describe(note: LockNote | null): string {
  return note === null
    ? "another process"
    : `PID ${note.pid} on host ${note.host} (since ${note.started_at})`;
}

/**
 * Lock the output folder `dir` (which exists) for this process. Throws a {@link UsageError}
 * when another batch holds it or left it on another host; throws the file system's error when
 * the lock file cannot be created (a read-only folder).
 */
export async function lockOutFolder(dir: string): Promise<FileLock> {
  const pid = processId();
  const path = `${dir}/${LOCK_FILE}`;
  const lock = await tryLockFile(path);
  if (lock === null) {
    const note = parseNote(await readTextFile(path).catch(() => ""));
    throw new UsageError(
      `Output folder --out ${dir} is in use by another batch: ${describe(note)}. ` +
        `Run one batch per output folder (wait for it, or stop it)`,
    );
  }
  const host = hostName();
  const previous = parseNote(lock.previous);
  if (previous !== null && previous.host !== host) {
    await lock.abandon();
    throw new UsageError(
      `Output folder --out ${dir} was locked by ${describe(previous)}, which this host ` +
        `(${host}) cannot check. If that batch is no longer running, delete ${path} and run again`,
    );
  }
  if (previous !== null && previous.pid !== pid) {
    writeStderrLine(
      `magi-tools: took over the lock of ${dir} from ${describe(previous)}: ` +
        `that batch is no longer running (it stopped without releasing it, e.g. killed)`,
    );
  }
  const note: LockNote = { pid, host, started_at: new Date().toISOString() };
  try {
    await lock.write(`${JSON.stringify(note)}\n`);
  } catch (error) {
    await lock.abandon();
    throw error;
  }
  return lock;
}
