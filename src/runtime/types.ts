/**
 * The runtime adapter's shared shapes: what a child process, its exit, a
 * terminal and a loopback server look like to the host, client and CLI, and
 * {@link Runtime}, the primitives each adapter (`deno/mod.ts`, `node/mod.ts`)
 * provides and `policy.ts` builds on. Runtime-neutral (no `Deno.*`, no `node:*`).
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
  /**
   * Bytes written to `stdin` that have not yet reached the OS, still waiting in a buffer of this
   * process (a write that resolved may still be on its way); counted before the write resolves
   * and taken off, in order, as the pipe takes them. Absent where the runtime cannot tell. A
   * connection uses a frame's memory again only once this says its bytes left.
   */
  readonly stdinUnflushed?: () => number;
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

/** What {@link Runtime.stat} tells about a path. */
export interface FileInfo {
  /** A regular file. */
  readonly isFile: boolean;
  /** A directory. */
  readonly isDirectory: boolean;
  /** Permission bits, or null where the runtime has none (Deno on Windows). */
  readonly mode: number | null;
}

/** A terminal to prompt on, as {@link Runtime.openTty} opens it. */
export interface TtyChannel {
  /** Read into `buffer`; the byte count, or null at end of input. */
  read(buffer: Uint8Array): Promise<number | null>;
  /** Write some of `bytes` at once; how many were written. */
  writeSync(bytes: Uint8Array): number;
  /** Release the channel (a no-op where the process owns it). */
  close(): void;
}

/** What a watched directory saw ({@link Runtime.watchDirs}). */
export interface WatchEvent {
  /** `"access"` for a mere read (Deno only), `"other"` for any change. */
  readonly kind: "access" | "other";
  /** The paths concerned (absolute where the runtime says them so). */
  readonly paths: readonly string[];
}

/** A running directory watch: its events until {@link DirWatch.close}. */
export interface DirWatch extends AsyncIterable<WatchEvent> {
  /** Stop watching; the iteration then ends. */
  close(): void;
}

/** The three standard streams. */
export type StdStream = "stdin" | "stdout" | "stderr";

/** The handler a loopback server serves. */
export type LoopbackHandler = (request: Request) => Response | Promise<Response>;

/**
 * The primitives a runtime adapter provides: one call each into the runtime, no policy
 * (`policy.ts` and `system.ts` build the exported functions on them). Written once per
 * runtime, in `deno/mod.ts` and `node/mod.ts`; the npm build swaps the first for the second.
 */
export interface Runtime {
  /** Which runtime this is. */
  readonly name: RuntimeName;
  /** The operating system: `"linux"`, `"darwin"`, `"windows"`, … */
  readonly os: string;
  /** Whether tools can run in their own sandboxed `deno run` process. */
  readonly processIsolation: boolean;
  /** An environment variable; undefined when unset. */
  env(name: string): string | undefined;
  /** An environment variable only when reading it needs no permission not held. */
  envIfGranted(name: string): string | undefined;
  /** Set an environment variable of this process. */
  setEnv(name: string, value: string): void;
  /** Remove an environment variable of this process. */
  deleteEnv(name: string): void;
  /** The current working directory. */
  cwd(): string;
  /** The command-line arguments (after the script). */
  args(): string[];
  /** Exit the process. */
  exit(code: number): never;
  /** The path of the running runtime executable. */
  execPath(): string;
  /** This process's ID. */
  pid(): number;
  /** The parent process's ID (read anew at each call). */
  ppid(): number;
  /** This machine's host name. */
  hostName(): string;
  /** Let `timer` (a `setTimeout`/`setInterval` result) not keep the process alive. */
  unrefTimer(timer: unknown): void;
  /** Listen for `signal`; returns the remover (a no-op where the signal cannot be heard). */
  onSignal(signal: StopSignal, listener: () => void): () => void;
  /** Whether `stream` is a terminal. */
  isTerminal(stream: StdStream): boolean;
  /** stdin as bytes (read it once). */
  stdin(): AsyncIterable<Uint8Array>;
  /** Write all of `bytes` to stdout. */
  writeStdout(bytes: Uint8Array): Promise<void>;
  /** Write some of `bytes` to stderr at once; how many were written (throws when gone). */
  writeStderrSync(bytes: Uint8Array): number;
  /** Where to prompt (`openTerminal`), or why nowhere. */
  openTty(): TtyChannel | NoTerminalReason;
  /** Read a UTF-8 text file. */
  readTextFile(path: string): Promise<string>;
  /** Write a UTF-8 text file (create or truncate), a new one with `mode` when given. */
  writeTextFile(path: string, text: string, mode?: number): Promise<void>;
  /** Create `path` and its missing parents with `mode`. */
  makeDirs(path: string, mode: number): Promise<void>;
  /** Change `path`'s permission bits. */
  chmod(path: string, mode: number): Promise<void>;
  /** `path`'s canonical absolute form; throws when it does not exist. */
  realPath(path: string): Promise<string>;
  /** Create a temporary directory with `prefix`; its path. */
  makeTempDir(prefix: string): Promise<string>;
  /** Remove `path` recursively (may throw when it is gone). */
  remove(path: string): Promise<void>;
  /** Rename `from` to `to`, replacing `to` (atomic on one file system). */
  rename(from: string, to: string): Promise<void>;
  /** Make `path` a hard link to `existing`; throws when `path` exists ({@link Runtime.isAlreadyExists}). */
  link(existing: string, path: string): Promise<void>;
  /** Whether `error` means a path does not exist. */
  isNotFound(error: unknown): boolean;
  /** Whether `error` means a path exists already. */
  isAlreadyExists(error: unknown): boolean;
  /**
   * Whether this process may already read (or write) `path` (any path when omitted) without
   * a prompt; always true where the runtime has no file permissions (Node.js).
   */
  fileGranted(access: "read" | "write", path?: string): boolean;
  /** The runtime's versions (Deno: `deno`, `v8`, `typescript`; Node.js: `process.versions`). */
  versions(): Readonly<Record<string, string>>;
  /** Watch `dirs` (with everything under them when `recursive`); throws when one cannot be watched. */
  watchDirs(dirs: readonly string[], recursive: boolean): DirWatch;
  /** What `path` is; throws when it does not exist. */
  stat(path: string): Promise<FileInfo>;
  /** Take an exclusive lock on `path` without waiting; null when another process holds it. */
  tryLockFile(path: string): Promise<FileLock | null>;
  /**
   * Start `command` with no stdio, not waited for and not keeping this process alive (a
   * browser opener); throws when it cannot start at once (Node.js reports a missing command
   * later, and that is ignored).
   */
  spawnDetached(command: string, args: readonly string[]): void;
  /** Spawn `command` (see `spawnChild`); throws {@link SpawnError}. */
  spawnChild(command: string, args: readonly string[], options: SpawnOptions): ChildHandle;
  /** Serve on 127.0.0.1 at once (throws where the runtime binds only asynchronously). */
  serveLoopback(handler: LoopbackHandler, port: number): LoopbackServer;
  /** Serve on 127.0.0.1 once listening; `onError` hears handler failures the runtime does not report. */
  listenLoopback(
    handler: LoopbackHandler,
    port: number,
    onError: (error: unknown) => void,
  ): Promise<LoopbackServer>;
  /** Whether `error` means a listening address is already in use. */
  isAddrInUse(error: unknown): boolean;
}
