/**
 * Child processes for the host: spawn with piped stdin/stdout, and reap in
 * steps (close stdin, grace, SIGTERM, grace, SIGKILL). The one file that knows
 * `Deno.Command`; the npm build swaps this adapter for Node's.
 *
 * @module
 */

/** How a child ended: exit code, or the signal that killed it. */
export interface ExitInfo {
  /** Exit code (128 + signal number when killed by a signal, as Deno reports it). */
  code: number;
  /** The signal that ended the child, or null. */
  signal: string | null;
}

/** Options of {@link spawnChild}. */
export interface SpawnOptions {
  /** Working directory of the child; default the current one. */
  cwd?: string;
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string>;
  /** Where the child's stderr goes; default `"inherit"`. */
  stderr?: "inherit" | "null" | "piped";
}

/** A spawned child with piped stdin/stdout. */
export interface ChildHandle {
  /** Process ID. */
  readonly pid: number;
  /** The child's stdin. */
  readonly stdin: WritableStream<Uint8Array>;
  /** The child's stdout. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** The child's stderr when `stderr: "piped"`, else null. */
  readonly stderr: ReadableStream<Uint8Array> | null;
  /** Resolves once the child has exited (never rejects). */
  readonly exited: Promise<ExitInfo>;
  /** Whether the child has exited. */
  readonly hasExited: boolean;
  /** Send `signal`; ignored when the child is gone. */
  kill(signal?: "SIGTERM" | "SIGKILL" | "SIGINT"): void;
}

/** The child could not be started (command not found, not executable). */
export class SpawnError extends Error {
  /** The command that failed to start. */
  readonly command: string;
  /** Create the error for `command`. */
  constructor(command: string, options?: ErrorOptions) {
    super(`Cannot start command: ${command}`, options);
    this.name = "SpawnError";
    this.command = command;
  }
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

/** Options of {@link reapChild}. */
export interface ReapOptions {
  /** Wait after closing stdin before SIGTERM, ms; default 2000. */
  closeGraceMs?: number;
  /** Wait after SIGTERM before SIGKILL, ms; default 2000. */
  termGraceMs?: number;
  /** Skip the graces: SIGKILL at once. */
  immediate?: boolean;
  /** When it aborts during a grace, SIGKILL at once. */
  signal?: AbortSignal;
}

function waitFor<T>(promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  if (signal?.aborted) return Promise.resolve(undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    onAbort = () => resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  });
}

/**
 * Reap a child in steps: close stdin, wait, SIGTERM, wait, SIGKILL, and
 * always await its exit (`immediate`: SIGKILL at once; an aborted `signal`
 * cuts the graces short). Also releases stdout/stderr. Never rejects.
 */
export async function reapChild(child: ChildHandle, options: ReapOptions = {}): Promise<ExitInfo> {
  try {
    await child.stdin.close();
  } catch {
    // Already closed, or the writer is locked/broken: the pipe closes with the child.
  }
  if (options.immediate) child.kill("SIGKILL");
  const signal = options.signal;
  let info = options.immediate
    ? await child.exited
    : await waitFor(child.exited, options.closeGraceMs ?? 2_000, signal);
  if (info === undefined && !signal?.aborted) {
    child.kill("SIGTERM");
    info = await waitFor(child.exited, options.termGraceMs ?? 2_000, signal);
  }
  if (info === undefined) {
    child.kill("SIGKILL");
    info = await child.exited;
  }
  for (const stream of [child.stdout, child.stderr]) {
    if (stream === null) continue;
    try {
      if (!stream.locked) await stream.cancel();
    } catch {
      // Already released.
    }
  }
  return info;
}
