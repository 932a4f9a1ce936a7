/**
 * Child processes on Node.js, for the adapter's `spawnChild`: the counterpart
 * of `../deno/process.ts`, with the same behaviour (a start failure
 * throws {@link SpawnError} synchronously, a signal death reports
 * 128 + signal number, stdin/stdout/stderr are Web Streams).
 *
 * The child's stdio are real Unix pipes (`fifo.ts`), as `magi-code serve
 * --stdio` requires. Like Deno's adapter, each child starts in its own
 * session and process group (`detached`), and signals go to the whole group.
 *
 * @module
 */

import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants as fsConstants, statSync } from "node:fs";
import { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "../types.ts";
import { childHandle, exitInfoOf } from "../_child.ts";
import { pathCandidates } from "../_path.ts";
import { closeAll, makePipes, type Pipes, webReadable, webWritable } from "./fifo.ts";

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
  const stdin = webWritable(parentIn);
  return childHandle({
    pid: pid ?? 0,
    stdin: stdin.stream,
    stdinUnflushed: stdin.unflushed,
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
