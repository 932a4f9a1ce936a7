/**
 * Child processes on Deno, for the adapter's `spawnChild` (see `../system.ts`).
 *
 * Each child starts in its own session and process group (`setsid`), so a
 * Ctrl-C typed in the terminal reaches only the host, which then runs its
 * cancel flow; signals the host sends go to the child's whole group.
 * `Deno.Command` cannot start a new session, so this uses Deno's
 * `node:child_process` (`detached: true` calls `setsid`), whose pipes are
 * real Unix pipes.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "../types.ts";
import { childHandle, exitInfoOf } from "../_child.ts";
import { isExecutableFile, pathCandidates } from "../_path.ts";

/**
 * Spawn `command` with `args`, stdin and stdout piped, in its own session and
 * process group when the host may read its whole environment (Deno's
 * `node:child_process` needs that to pass it on); otherwise in the host's
 * process group (a terminal's Ctrl-C then reaches the child too). Throws
 * {@link SpawnError} when it cannot start.
 */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildHandle {
  if (canStartSessions()) return spawnInOwnSession(command, args, options);
  const setsid = setsidFor(command, options.cwd);
  if (setsid === "missing") throw new SpawnError(command);
  return spawnWithCommand(command, args, options, setsid);
}

/**
 * Where `setsid(1)` is, when the host may run it and `command` was found (the
 * wrapper would hide a missing command); `"missing"` when `command` does not
 * exist; null when either cannot be checked (no permission, no `setsid`).
 */
function setsidFor(command: string, cwd: string | undefined): string | "missing" | null {
  try {
    const setsid = ["/usr/bin/setsid", "/bin/setsid"].find((path) => isExecutable(path));
    if (setsid === undefined) return null;
    if (Deno.permissions.querySync({ name: "run", command: setsid }).state !== "granted") {
      return null;
    }
    const candidates = pathCandidates(command, Deno.env.get("PATH"), cwd ?? Deno.cwd());
    return candidates.some((path) => isExecutable(path)) ? setsid : "missing";
  } catch {
    return null;
  }
}

/** Whether `path` is an executable file; throws when the host may not look. */
function isExecutable(path: string): boolean {
  try {
    return isExecutableFile(Deno.statSync(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw error;
  }
}

/** Whether children can start in their own session: the whole environment is readable. */
function canStartSessions(): boolean {
  try {
    return Deno.permissions.querySync({ name: "env" }).state === "granted";
  } catch {
    return false;
  }
}

const NODE_STDERR = { inherit: "inherit", null: "ignore", piped: "pipe" } as const;

function spawnInOwnSession(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
): ChildHandle {
  let child: ChildProcess;
  try {
    child = spawn(command, [...args], {
      // setsid(): a terminal's SIGINT goes to the host's foreground group only.
      detached: true,
      stdio: ["pipe", "pipe", NODE_STDERR[options.stderr ?? "inherit"]],
      env: options.clearEnv === true
        ? { ...(options.env ?? {}) }
        : { ...Deno.env.toObject(), ...(options.env ?? {}) },
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
  } catch (error) {
    throw new SpawnError(command, { cause: error });
  }
  // A start failure is reported as an "error" event; the pid tells at once.
  child.on("error", () => {});
  if (child.pid === undefined) throw new SpawnError(command);
  const pid = child.pid;
  const exit = new Promise<ExitInfo>((resolveExit) => {
    child.once("exit", (code, signal) => resolveExit(exitInfoOf(code, signal)));
  });
  const stdin = child.stdin!;
  const stdout = child.stdout!;
  // Writes after the child closed its stdin fail with EPIPE: the Web Stream reports it.
  stdin.on("error", () => {});
  stdout.on("error", () => {});
  child.stderr?.on("error", () => {});
  return childHandle({
    pid,
    stdin: Writable.toWeb(stdin) as WritableStream<Uint8Array>,
    // Node.js counts a chunk in `writableLength` from its `write()` until the pipe took all of
    // it, and writes in order; the web stream's write resolves once `write()` returned (below
    // the high-water mark), before the pipe took the bytes.
    stdinUnflushed: () => stdin.writableLength,
    stdout: Readable.toWeb(stdout) as unknown as ReadableStream<Uint8Array>,
    stderr: child.stderr === null
      ? null
      : Readable.toWeb(child.stderr) as unknown as ReadableStream<Uint8Array>,
    exit,
    // The child leads its own process group: signal the whole group.
    killGroup: (signal) => Deno.kill(-pid, signal),
    killOne: (signal) => child.kill(signal),
  });
}

/**
 * Spawn with `Deno.Command`: through `setsid` (which calls setsid() and execs
 * the command in place: same pid, same exit status) when given, else in the
 * host's process group.
 */
function spawnWithCommand(
  command: string,
  args: readonly string[],
  options: SpawnOptions,
  setsid: string | null,
): ChildHandle {
  let process: Deno.ChildProcess;
  try {
    process = new Deno.Command(setsid ?? command, {
      args: setsid === null ? [...args] : ["--", command, ...args],
      stdin: "piped",
      stdout: "piped",
      stderr: options.stderr ?? "inherit",
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.clearEnv === true ? { clearEnv: true } : {}),
    }).spawn();
  } catch (error) {
    throw new SpawnError(command, { cause: error });
  }
  const exit = process.status.then(
    (s): ExitInfo => ({ code: s.code, signal: s.signal }),
    (): ExitInfo => ({ code: 1, signal: null }),
  );
  return childHandle({
    pid: process.pid,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: options.stderr === "piped" ? process.stderr : null,
    exit,
    // Under setsid the child leads its own process group: signal the whole group.
    killGroup: setsid === null ? null : (signal) => Deno.kill(-process.pid, signal),
    killOne: (signal) => process.kill(signal),
  });
}
