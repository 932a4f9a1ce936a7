/**
 * Child processes on Node.js, for the adapter's `spawnChild`: the counterpart
 * of `../deno/process.ts`, with the same behaviour (a start failure
 * throws {@link SpawnError} synchronously, a signal death reports
 * 128 + signal number, stdin/stdout/stderr are Web Streams).
 *
 * The child's stdio are real Unix pipes, as `magi-code serve --stdio`
 * requires: Node's own `"pipe"` stdio is a socket pair, so each stream is a
 * FIFO made with `mkfifo(1)` in a private temporary directory, opened on both
 * ends and unlinked before the child starts (the child sees an anonymous
 * FIFO, like Deno's pipes). Like Deno's adapter, each child starts in its own
 * session and process group (`detached`), and signals go to the whole group.
 *
 * @module
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
} from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "../types.ts";
import { childHandle, exitInfoOf } from "../_child.ts";
import { pathCandidates } from "../_path.ts";

function canExecute(path: string): boolean {
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
  return pathCandidates(command, pathVar, cwd ?? process.cwd()).some(canExecute);
}

/** The FIFOs of one child: the child's ends and the parent's. */
interface Pipes {
  /** Child stdin (read end), stdout and stderr (write ends); stderr only when piped. */
  child: [number, number, number | null];
  /** Parent ends: stdin (write), stdout (read), stderr (read) or null. */
  parent: [number, number, number | null];
}

function closeAll(fds: (number | null)[]): void {
  for (const fd of fds) {
    if (fd === null) continue;
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
  }
}

/**
 * Make the child's stdio FIFOs. Every open is non-blocking in effect: a FIFO
 * end opens at once when the other end is already open, so each pair opens
 * its first end with `O_NONBLOCK` (the parent's end, or a throwaway reader).
 * The child's ends stay in blocking mode.
 */
function makePipes(withStderr: boolean): Pipes {
  const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fsConstants;
  const dir = mkdtempSync(join(tmpdir(), "magi-tools-pipes-"));
  const opened: number[] = [];
  const open = (path: string, flags: number) => {
    const fd = openSync(path, flags);
    opened.push(fd);
    return fd;
  };
  try {
    const names = withStderr ? ["in", "out", "err"] : ["in", "out"];
    execFileSync("mkfifo", ["-m", "600", ...names.map((name) => join(dir, name))]);
    const stdinPath = join(dir, "in");
    const probe = open(stdinPath, O_RDONLY | O_NONBLOCK);
    const parentIn = open(stdinPath, O_WRONLY);
    const childIn = open(stdinPath, O_RDONLY);
    closeSync(probe);
    opened.splice(opened.indexOf(probe), 1);
    const parentOut = open(join(dir, "out"), O_RDONLY | O_NONBLOCK);
    const childOut = open(join(dir, "out"), O_WRONLY);
    const parentErr = withStderr ? open(join(dir, "err"), O_RDONLY | O_NONBLOCK) : null;
    const childErr = withStderr ? open(join(dir, "err"), O_WRONLY) : null;
    return { child: [childIn, childOut, childErr], parent: [parentIn, parentOut, parentErr] };
  } catch (error) {
    closeAll(opened);
    throw error;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function webReadable(fd: number): ReadableStream<Uint8Array> {
  const socket = new Socket({ fd, readable: true, writable: false });
  return Readable.toWeb(socket) as unknown as ReadableStream<Uint8Array>;
}

function webWritable(fd: number): WritableStream<Uint8Array> {
  const socket = new Socket({ fd, readable: false, writable: true });
  // Writes after the child closed its stdin fail with EPIPE: the Web Stream reports it.
  socket.on("error", () => {});
  return Writable.toWeb(socket) as WritableStream<Uint8Array>;
}

/**
 * Spawn `command` with `args`, stdin and stdout piped. Throws
 * {@link SpawnError} when it cannot start.
 */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildHandle {
  const env = options.clearEnv === true
    ? { ...(options.env ?? {}) }
    : { ...process.env, ...(options.env ?? {}) };
  if (!commandExists(command, options.cwd, env.PATH ?? "")) throw new SpawnError(command);
  const stderrMode = options.stderr ?? "inherit";
  let pipes: Pipes;
  try {
    pipes = makePipes(stderrMode === "piped");
  } catch (error) {
    throw new SpawnError(command, { cause: error });
  }
  const [childIn, childOut, childErr] = pipes.child;
  let child: ChildProcess;
  try {
    child = spawn(command, [...args], {
      // setsid(), as on Deno: a terminal's SIGINT goes to the host's foreground group only.
      detached: true,
      stdio: [childIn, childOut, childErr ?? (stderrMode === "null" ? "ignore" : "inherit")],
      env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
  } catch (error) {
    closeAll([...pipes.child, ...pipes.parent]);
    throw new SpawnError(command, { cause: error });
  } finally {
    // The child has its own copies now.
    closeAll(pipes.child);
  }
  const exit = new Promise<ExitInfo>((resolveExit) => {
    child.once("exit", (code, signal) => resolveExit(exitInfoOf(code, signal)));
    // A start failure after the check (EACCES, a missing cwd): no "exit" follows.
    child.once("error", () => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) return;
      resolveExit({ code: 1, signal: null });
    });
  });
  const [parentIn, parentOut, parentErr] = pipes.parent;
  const pid = child.pid;
  return childHandle({
    pid: pid ?? 0,
    stdin: webWritable(parentIn),
    stdout: webReadable(parentOut),
    stderr: parentErr === null ? null : webReadable(parentErr),
    exit,
    // The child leads its own process group: signal the whole group. Without a pid the child
    // never started (-0 would be the host's own group): nothing to signal.
    killGroup: (signal) => {
      if (pid !== undefined) process.kill(-pid, signal);
    },
    killOne: (signal) => child.kill(signal),
  });
}
