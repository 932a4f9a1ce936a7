/**
 * The runtime's primitives as the functions the host, client and CLI call:
 * env, cwd, exit, standard streams, files, temporary directories, child
 * processes, locks and loopback servers. Each is one call into the adapter
 * (`./deno/mod.ts`, swapped for `./node/mod.ts` in the npm build); what is
 * more than one call is in `policy.ts`.
 *
 * @module
 */

import { runtime } from "./deno/mod.ts";
import { writeStderrLine } from "./policy.ts";
import type {
  ChildHandle,
  DirWatch,
  FileInfo,
  FileLock,
  LoopbackHandler,
  LoopbackServer,
  RuntimeName,
  SpawnOptions,
} from "./types.ts";

/** Which runtime this adapter is for: `"deno"` or `"node"`. */
export function runtimeName(): RuntimeName {
  return runtime.name;
}

/** Read an environment variable; undefined when unset. */
export function getEnv(name: string): string | undefined {
  return runtime.env(name);
}

/**
 * Read an environment variable only when this process may already read it:
 * undefined when unset or when reading it would need a permission it does
 * not hold (it never makes Deno prompt or throw; Node.js has no env permission).
 */
export function getEnvIfGranted(name: string): string | undefined {
  return runtime.envIfGranted(name);
}

/** Set an environment variable of this process (seen by in-process tools). */
export function setEnv(name: string, value: string): void {
  runtime.setEnv(name, value);
}

/** Remove an environment variable of this process. */
export function deleteEnv(name: string): void {
  runtime.deleteEnv(name);
}

/** The current working directory. */
export function currentDir(): string {
  return runtime.cwd();
}

/** The operating system: `"linux"`, `"darwin"`, `"windows"`, … */
export function osName(): string {
  return runtime.os;
}

/** The command-line arguments (after the script). */
export function commandArgs(): string[] {
  return runtime.args();
}

/** Exit the process with `code`. */
export function exitProcess(code: number): never {
  return runtime.exit(code);
}

/** The path of the running runtime executable (deno or node). */
export function runtimeExecutable(): string {
  return runtime.execPath();
}

/** This process's ID. */
export function processId(): number {
  return runtime.pid();
}

/**
 * This machine's host name. On Deno: `Deno.hostname()` when `--allow-sys` grants it, else the
 * kernel's (`/proc/sys/kernel/hostname`), else `$HOSTNAME`, else `unknown-host`.
 */
export function hostName(): string {
  return runtime.hostName();
}

/** Whether stdin is a terminal. */
export function stdinIsTerminal(): boolean {
  return runtime.isTerminal("stdin");
}

/** Whether stdout is a terminal. */
export function stdoutIsTerminal(): boolean {
  return runtime.isTerminal("stdout");
}

/** Whether stderr is a terminal. */
export function stderrIsTerminal(): boolean {
  return runtime.isTerminal("stderr");
}

/** stdin as a byte stream (read it once). */
export function stdinStream(): AsyncIterable<Uint8Array> {
  return runtime.stdin();
}

/** Write all of `bytes` to stdout. */
export function writeStdout(bytes: Uint8Array): Promise<void> {
  return runtime.writeStdout(bytes);
}

/** Read a UTF-8 text file. */
export function readTextFile(path: string): Promise<string> {
  return runtime.readTextFile(path);
}

/** Write a UTF-8 text file (create or truncate); a new file gets `mode` when given. */
export function writeTextFile(path: string, text: string, mode?: number): Promise<void> {
  return runtime.writeTextFile(path, text, mode);
}

/** Create `path` and its missing parents with `mode` (an existing directory is kept as it is). */
export function makeDirs(path: string, mode = 0o777): Promise<void> {
  return runtime.makeDirs(path, mode);
}

/** What `path` is (file, directory, permission bits); throws when it does not exist. */
export function fileInfo(path: string): Promise<FileInfo> {
  return runtime.stat(path);
}

/** Rename `from` to `to`, replacing `to` (atomic within one file system). */
export function renamePath(from: string, to: string): Promise<void> {
  return runtime.rename(from, to);
}

/** Make `path` a hard link to `existing`; throws when `path` exists ({@link isAlreadyExists}). */
export function linkFile(existing: string, path: string): Promise<void> {
  return runtime.link(existing, path);
}

/** Whether `error` (from a file call) means the path does not exist. */
export function isNotFound(error: unknown): boolean {
  return runtime.isNotFound(error);
}

/** Whether `error` (from a file call) means the path exists already. */
export function isAlreadyExists(error: unknown): boolean {
  return runtime.isAlreadyExists(error);
}

/**
 * Whether this process may already read `path` (any path when omitted) without making Deno
 * prompt; false when the check itself fails. Always true on Node.js (no file permissions).
 */
export function readGranted(path?: string): boolean {
  try {
    return runtime.fileGranted("read", path);
  } catch {
    return false;
  }
}

/** Like {@link readGranted}, for writing `path`. */
export function writeGranted(path?: string): boolean {
  try {
    return runtime.fileGranted("write", path);
  } catch {
    return false;
  }
}

/** The runtime's versions (Deno: `deno`, `v8`, `typescript`; Node.js: `process.versions`). */
export function runtimeVersions(): Readonly<Record<string, string>> {
  return runtime.versions();
}

/**
 * Watch `dirs` (with everything under them when `recursive`): an async iterable of
 * events (`WatchEvent`) until `close()`. Throws when a directory cannot be watched.
 */
export function watchDirs(dirs: readonly string[], recursive: boolean): DirWatch {
  return runtime.watchDirs(dirs, recursive);
}

/** Resolve `path` to its canonical absolute form; throws when it does not exist. */
export function realPath(path: string): Promise<string> {
  return runtime.realPath(path);
}

/** Create a temporary directory with `prefix`; returns its path. */
export function makeTempDir(prefix: string): Promise<string> {
  return runtime.makeTempDir(prefix);
}

/**
 * Take an exclusive lock on `path` (created if missing) without waiting; null when another
 * process holds it. Throws when the file cannot be created or opened for writing (a
 * read-only folder). On Deno a `flock(2)` the kernel drops with its process; on Node.js the
 * holder's note (`{"pid":…,"host":…}`) names a live process on this host.
 */
export function tryLockFile(path: string): Promise<FileLock | null> {
  return runtime.tryLockFile(path);
}

/** Whether tools can run in their own sandboxed `deno run` process: true on Deno only. */
export function supportsProcessIsolation(): boolean {
  return runtime.processIsolation;
}

/**
 * Spawn `command` with `args`, stdin and stdout piped, in its own session and process group
 * where the runtime allows it (a terminal's Ctrl-C then reaches only the host, and `kill`
 * signals the whole group). Throws {@link SpawnError} when it cannot start.
 *
 * @example
 * ```ts
 * import { reapChild, runtimeExecutable, spawnChild } from "./mod.ts";
 * const child = spawnChild(runtimeExecutable(), ["eval", "console.log(1)"]);
 * await child.stdout.cancel();
 * await reapChild(child);
 * ```
 */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildHandle {
  return runtime.spawnChild(command, args, options);
}

/**
 * Start `command` with `args` and no stdio, neither waited for nor keeping this process alive
 * (a browser opener). Throws when it cannot start at once; on Node.js a missing command is
 * reported later and ignored.
 */
export function spawnDetached(command: string, args: readonly string[]): void {
  runtime.spawnDetached(command, args);
}

/**
 * Start a loopback HTTP server on `port` (default 0: a free port); returns
 * its base URL and a stop function. Throws `Deno.errors.AddrInUse` when the
 * port is taken; on Node.js, which binds only asynchronously, always throws.
 */
export function serveLoopback(handler: LoopbackHandler, port = 0): LoopbackServer {
  return runtime.serveLoopback(handler, port);
}

/**
 * Like {@link serveLoopback}, resolving once the server listens (prefer this in
 * runtime-neutral code). Rejects with an error {@link isAddrInUse} recognizes when the
 * port is taken. A handler failure answers 500 and is told on stderr.
 */
export function listenLoopback(handler: LoopbackHandler, port = 0): Promise<LoopbackServer> {
  return runtime.listenLoopback(
    handler,
    port,
    (error) => writeStderrLine(`Loopback server handler failed: ${String(error)}`),
  );
}

/** Whether `error` means a listening address is already in use. */
export function isAddrInUse(error: unknown): boolean {
  return runtime.isAddrInUse(error);
}
