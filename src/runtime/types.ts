/**
 * The runtime adapter's shared shapes: what a child process, its exit, a
 * terminal and a loopback server look like to the host, client and CLI.
 * Runtime-neutral (no `Deno.*`, no `node:*`): both adapters, Deno's
 * (`../runtime/mod.ts`) and Node's (`./node/mod.ts`), use these.
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

/** Options of `spawnChild`. */
export interface SpawnOptions {
  /** Working directory of the child; default the current one. */
  cwd?: string;
  /** Variables added to (or overriding) the inherited environment. */
  env?: Record<string, string>;
  /** When true, the child inherits nothing: its environment is exactly `env`. */
  clearEnv?: boolean;
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

/** A line-oriented terminal for interactive prompts (stdin and stderr, or `/dev/tty`). */
export interface Terminal {
  /** Write `question`, read one line (without LF); null at EOF. */
  ask(question: string): Promise<string | null>;
  /** Release the terminal. */
  close(): void;
}

/**
 * Why `openTerminal()` found nowhere to prompt: `not_permitted` when stdin or
 * stderr is not a terminal and the runtime refused to open `/dev/tty` (Deno
 * opens it only with `--allow-all`); `none` when there is no controlling
 * terminal at all.
 */
export type NoTerminalReason = "not_permitted" | "none";

/** What `openTerminal()` found: a terminal, or the reason there is none. */
export type TerminalOpening =
  | { readonly terminal: Terminal }
  | { readonly terminal: null; readonly reason: NoTerminalReason };

/** A running loopback HTTP server. */
export interface LoopbackServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  url: string;
  /** Stop listening and wait until the server has closed. */
  stop: () => Promise<void>;
}

/** Which runtime the adapter is for. */
export type RuntimeName = "deno" | "node";

/** A signal that asks the process to stop gracefully. */
export type StopSignal = "SIGINT" | "SIGTERM";

/**
 * An exclusive lock on a file (`tryLockFile`), held until {@link FileLock.release} or
 * {@link FileLock.abandon}, or until the process dies: the kernel drops it with the process,
 * so a lock left by a killed process is free again.
 */
export interface FileLock {
  /** The file's text when the lock was taken: a note left by an earlier holder, or "". */
  readonly previous: string;
  /** Replace the file's text (the holder's note). */
  write(text: string): Promise<void>;
  /** Empty the file and release the lock. Never throws. */
  release(): Promise<void>;
  /** Release the lock and leave the file's text as it is. Never throws. */
  abandon(): Promise<void>;
}
