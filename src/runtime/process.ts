/**
 * Child processes for the host: spawn with piped stdin/stdout, and reap in
 * steps (close stdin, grace, SIGTERM, grace, SIGKILL). The one file that knows
 * `Deno.Command`; the npm build swaps this adapter for Node's (`node/process.ts`).
 *
 * @module
 */

import { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "./types.ts";

export { type ChildHandle, type ExitInfo, SpawnError, type SpawnOptions } from "./types.ts";
export { reapChild, type ReapOptions } from "./reap.ts";

/** Whether tools can run in their own sandboxed `deno run` process: true on Deno. */
export function supportsProcessIsolation(): boolean {
  return true;
}

/**
 * Spawn `command` with `args`, stdin and stdout piped. Throws
 * {@link SpawnError} when it cannot start.
 *
 * @example
 * ```ts
 * import { reapChild, spawnChild } from "./process.ts";
 * const child = spawnChild(Deno.execPath(), ["eval", "console.log(1)"]);
 * await child.stdout.cancel();
 * await reapChild(child);
 * ```
 */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildHandle {
  let process: Deno.ChildProcess;
  try {
    process = new Deno.Command(command, {
      args: [...args],
      stdin: "piped",
      stdout: "piped",
      stderr: options.stderr ?? "inherit",
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
    }).spawn();
  } catch (error) {
    throw new SpawnError(command, { cause: error });
  }
  let exited = false;
  const status = process.status.then(
    (s): ExitInfo => {
      exited = true;
      return { code: s.code, signal: s.signal };
    },
    (): ExitInfo => {
      exited = true;
      return { code: 1, signal: null };
    },
  );
  return {
    pid: process.pid,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: options.stderr === "piped" ? process.stderr : null,
    exited: status,
    get hasExited() {
      return exited;
    },
    kill(signal = "SIGTERM") {
      if (exited) return;
      try {
        process.kill(signal);
      } catch {
        // Already gone between the check and the kill.
      }
    },
  };
}
