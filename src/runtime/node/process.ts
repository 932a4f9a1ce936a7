/**
 * Child processes on Node.js: the `node:child_process` counterpart of
 * `../process.ts`, with the same exports and behaviour (a start failure
 * throws {@link SpawnError} synchronously, a signal death reports
 * 128 + signal number, stdin/stdout/stderr are Web Streams).
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants as fsConstants, statSync } from "node:fs";
import { constants as osConstants } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "../types.ts";

export { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "../types.ts";
export { reapChild, type ReapOptions } from "../reap.ts";

/**
 * Whether tools can run in their own sandboxed `deno run` process: false on
 * Node.js, where every tool runs inline in the host process.
 */
export function supportsProcessIsolation(): boolean {
  return false;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Node reports a missing command asynchronously; find it first, like Deno does. */
function commandExists(command: string, cwd: string | undefined, pathVar: string): boolean {
  if (command.includes("/")) return isExecutableFile(resolve(cwd ?? process.cwd(), command));
  return pathVar.split(delimiter).some((dir) => dir !== "" && isExecutableFile(join(dir, command)));
}

function exitInfoOf(code: number | null, signal: NodeJS.Signals | null): ExitInfo {
  if (signal !== null) {
    const number = (osConstants.signals as Record<string, number | undefined>)[signal] ?? 0;
    return { code: 128 + number, signal };
  }
  return { code: code ?? 1, signal: null };
}

function webReadable(stream: NodeJS.ReadableStream | null): ReadableStream<Uint8Array> {
  if (stream === null) throw new Error("Child stream is not piped");
  return Readable.toWeb(stream as Readable) as unknown as ReadableStream<Uint8Array>;
}

const STDERR_MODE = { inherit: "inherit", null: "ignore", piped: "pipe" } as const;

/**
 * Spawn `command` with `args`, stdin and stdout piped. Throws
 * {@link SpawnError} when it cannot start.
 */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildHandle {
  const env = { ...process.env, ...(options.env ?? {}) };
  if (!commandExists(command, options.cwd, env.PATH ?? "")) throw new SpawnError(command);
  let child: ChildProcess;
  try {
    child = spawn(command, [...args], {
      stdio: ["pipe", "pipe", STDERR_MODE[options.stderr ?? "inherit"]],
      env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
  } catch (error) {
    throw new SpawnError(command, { cause: error });
  }
  let exited = false;
  const status = new Promise<ExitInfo>((resolveExit) => {
    child.once("exit", (code, signal) => {
      exited = true;
      resolveExit(exitInfoOf(code, signal));
    });
    // A start failure after the check (EACCES, a missing cwd): no "exit" follows.
    child.once("error", () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) return;
      exited = true;
      resolveExit({ code: 1, signal: null });
    });
  });
  // Writes after the child closed its stdin fail with EPIPE: the Web Stream reports it.
  child.stdin?.on("error", () => {});
  const stdin = Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>;
  return {
    pid: child.pid ?? 0,
    stdin,
    stdout: webReadable(child.stdout),
    stderr: options.stderr === "piped" ? webReadable(child.stderr) : null,
    exited: status,
    get hasExited() {
      return exited;
    },
    kill(signal = "SIGTERM") {
      if (exited) return;
      try {
        child.kill(signal);
      } catch {
        // Already gone between the check and the kill.
      }
    },
  };
}
