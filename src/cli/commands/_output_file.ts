/**
 * `run --last-message FILE` is checked before the turn: a file that cannot be
 * written then is a usage error (exit 2) instead of a lost answer after it.
 *
 * @module
 */

import { open, stat, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { UsageError } from "../../errors/mod.ts";

/**
 * Check that `path` can be written: its directory exists and the file can be
 * opened for writing. Nothing is left behind: a file this check created is
 * removed again, an existing one is opened for appending (not truncated) and
 * closed. Needs write permission for `path` only (not read).
 *
 * @throws {UsageError} naming `flag`, the file and the reason.
 */
export async function checkWritableFile(path: string, flag: string): Promise<void> {
  try {
    // Exclusive create: tells whether the file existed without reading anything.
    const created = await open(path, "ax");
    await created.close();
    await unlink(path);
    return;
  } catch (error) {
    if (codeOf(error) === "ENOENT") throw await missing(flag, path);
    if (codeOf(error) !== "EEXIST") throw usage(flag, path, error);
  }
  try {
    const existing = await open(path, "a");
    await existing.close();
  } catch (error) {
    throw usage(flag, path, error);
  }
}

/** ENOENT on create: the directory is missing, or the file system does not allow new files. */
async function missing(flag: string, path: string): Promise<UsageError> {
  let reason = "its directory does not exist";
  try {
    if ((await stat(dirname(path))).isDirectory()) reason = "it cannot be created there";
  } catch (error) {
    // Not allowed to look: say what is known.
    if (codeOf(error) !== "ENOENT" && codeOf(error) !== "ENOTDIR") {
      reason = "it cannot be created (does its directory exist?)";
    }
  }
  return new UsageError(`Option ${flag} cannot be written: ${path}: ${reason}`);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function usage(flag: string, path: string, error: unknown): UsageError {
  const code = codeOf(error);
  const name = error instanceof Error ? error.name : "";
  const reason = code === "ENOTDIR"
    ? "its directory does not exist"
    : code === "EISDIR"
    ? "it is a directory"
    : code === "EACCES" || code === "EPERM" || code === "EROFS"
    ? "it is not writable"
    : name === "NotCapable" || name === "PermissionDenied"
    ? "no write permission for it (deno run --allow-write)"
    : error instanceof Error
    ? error.message
    : String(error);
  return new UsageError(`Option ${flag} cannot be written: ${path}: ${reason}`);
}
