/**
 * The process-wide runtime facilities the host, client and CLI use: env,
 * cwd, signals, exit, standard streams, files and temporary directories.
 * The one file besides `process.ts` that knows `Deno.*`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { LoopbackServer, RuntimeName, StopSignal } from "./types.ts";
import { terminalText } from "../text/terminal_text.ts";
import { userDirFrom, type UserDirKind } from "./user_dirs.ts";
import { watchParent, type WatchTimers } from "./parent_watch.ts";

export type { UserDirKind } from "./user_dirs.ts";
export type {
  LoopbackServer,
  NoTerminalReason,
  RuntimeName,
  StopSignal,
  Terminal,
  TerminalOpening,
} from "./types.ts";

/** Which runtime this adapter is for: `"deno"`. */
export function runtimeName(): RuntimeName {
  return "deno";
}

/** Read an environment variable; undefined when unset. */
export function getEnv(name: string): string | undefined {
  return Deno.env.get(name);
}

/** The current working directory. */
export function currentDir(): string {
  return Deno.cwd();
}

/**
 * Read an environment variable only when this process may already read it:
 * undefined when unset or when reading it would need a permission it does
 * not hold (it never makes Deno prompt or throw).
 */
export function getEnvIfGranted(name: string): string | undefined {
  const state = Deno.permissions.querySync({ name: "env", variable: name }).state;
  return state === "granted" ? Deno.env.get(name) : undefined;
}

/** The operating system: `"linux"`, `"darwin"`, `"windows"`, … */
export function osName(): string {
  return Deno.build.os;
}

/**
 * The host's per-user directory of `kind` (`cache`, `config`, `state`; not
 * created), or null when it cannot be known without a permission this
 * process lacks. Never inside a user's project.
 */
export function userDir(kind: UserDirKind): string | null {
  return userDirFrom(kind, { env: getEnvIfGranted, os: osName() });
}

/** Resolve `path` to its canonical absolute form; throws when it does not exist. */
export function realPath(path: string): Promise<string> {
  return Deno.realPath(path);
}

/** The command-line arguments (after the script). */
export function commandArgs(): string[] {
  return [...Deno.args];
}

/** Exit the process with `code`. */
export function exitProcess(code: number): never {
  Deno.exit(code);
}

/** The path of the running runtime executable (deno or node). */
export function runtimeExecutable(): string {
  return Deno.execPath();
}

/** The listeners of {@link onInterrupt}, and the parent watch that runs while there are any. */
const interruptListeners = new Set<() => void>();
let stopParentWatch: (() => void) | null = null;
/** The parent pid this process started with (read when the adapter loads, at the start). */
const startPpid = Deno.ppid;

/** Real timers for the parent watch: unref'd, so they never keep the process alive. */
const unrefTimers: WatchTimers = {
  every(fn, ms) {
    const id = setInterval(fn, ms);
    Deno.unrefTimer(id);
    return () => clearInterval(id);
  },
  after(fn, ms) {
    const id = setTimeout(fn, ms);
    Deno.unrefTimer(id);
    return () => clearTimeout(id);
  },
};

/** The stop signal that came first (SIGINT or SIGTERM), or null. */
let firstStopSignal: StopSignal | null = null;

/**
 * The signal that stopped this process first: `SIGTERM` (exit 143), `SIGINT`
 * (exit 130), or null when none came (a parent's death counts as SIGINT).
 */
export function stopSignal(): StopSignal | null {
  return firstStopSignal;
}

/** SIGTERM listeners cannot be added on Windows (Deno has SIGINT and SIGBREAK there). */
const TERM_SIGNALS: readonly Deno.Signal[] = Deno.build.os === "windows" ? [] : ["SIGTERM"];

/**
 * Listen for a stop request; returns a function removing the listener. A
 * stop request is SIGINT or SIGTERM (a CI runner's `timeout`, `docker stop`,
 * Kubernetes), or the death of the process that started this
 * one (`deno task`, `npx`, a shell; noticed within 0.5 s by its
 * parent pid changing): that calls `listener` as a first Ctrl-C would and,
 * 5 s later if the process is still running, as a
 * second one, so a host whose task was killed does not run on under PID 1.
 */
export function onInterrupt(listener: () => void): () => void {
  const onInt = () => {
    firstStopSignal ??= "SIGINT";
    listener();
  };
  const onTerm = () => {
    firstStopSignal ??= "SIGTERM";
    listener();
  };
  Deno.addSignalListener("SIGINT", onInt);
  for (const signal of TERM_SIGNALS) Deno.addSignalListener(signal, onTerm);
  interruptListeners.add(listener);
  stopParentWatch ??= watchParent({
    ppid: () => Deno.ppid,
    startPpid,
    timers: unrefTimers,
    onGone: (again) => {
      if (!again) {
        writeStderrLine(
          `magi-tools: the parent process (pid ${startPpid}) exited: stopping as on Ctrl-C`,
        );
      }
      firstStopSignal ??= "SIGINT";
      for (const each of [...interruptListeners]) each();
    },
  });
  return () => {
    interruptListeners.delete(listener);
    if (interruptListeners.size === 0) {
      stopParentWatch?.();
      stopParentWatch = null;
    }
    try {
      Deno.removeSignalListener("SIGINT", onInt);
      for (const signal of TERM_SIGNALS) Deno.removeSignalListener(signal, onTerm);
    } catch {
      // Already removed.
    }
  };
}

/** Whether stdin is a terminal. */
export function stdinIsTerminal(): boolean {
  return Deno.stdin.isTerminal();
}

/** Whether stdout is a terminal. */
export function stdoutIsTerminal(): boolean {
  return Deno.stdout.isTerminal();
}

/** Whether stderr is a terminal. */
export function stderrIsTerminal(): boolean {
  return Deno.stderr.isTerminal();
}

/** stdin as a byte stream (read it once). */
export function stdinStream(): AsyncIterable<Uint8Array> {
  return Deno.stdin.readable;
}

/** Read all of stdin as UTF-8 text, at most `maxBytes` bytes (throws RangeError beyond). */
export async function readStdinText(maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of Deno.stdin.readable) {
    total += chunk.length;
    if (total > maxBytes) throw new RangeError(`Standard input exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(all);
}

/** Write all of `bytes` to stdout. */
export async function writeStdout(bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) offset += await Deno.stdout.write(bytes.subarray(offset));
}

const encoder = new TextEncoder();

/**
 * Write one line to stderr (diagnostics); never throws. Control characters are shown visibly
 * ({@link terminalText}): a line may carry a tool's, a server's or the model's text.
 */
export function writeStderrLine(text: string): void {
  try {
    const safe = terminalText(text);
    const bytes = encoder.encode(safe.endsWith("\n") ? safe : safe + "\n");
    let offset = 0;
    while (offset < bytes.length) offset += Deno.stderr.writeSync(bytes.subarray(offset));
  } catch {
    // stderr is gone: nothing else to report to.
  }
}

/** Read a UTF-8 text file. */
export function readTextFile(path: string): Promise<string> {
  return Deno.readTextFile(path);
}

/** Write a UTF-8 text file (create or truncate). */
export function writeTextFile(path: string, text: string): Promise<void> {
  return Deno.writeTextFile(path, text);
}

/**
 * Write a UTF-8 text file only its owner may read and write (`0600`; its missing parent
 * directories are created `0700`), for the host's credentials. Not atomic.
 */
export async function writePrivateTextFile(path: string, text: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(path, text, { mode: 0o600 });
  // `mode` applies to a new file only: an existing one keeps its bits unless changed here.
  if (Deno.build.os !== "windows") await Deno.chmod(path, 0o600);
}

/** Create a temporary directory with `prefix`; returns its path. */
export function makeTempDir(prefix: string): Promise<string> {
  return Deno.makeTempDir({ prefix });
}

/** Remove `path` recursively; never throws. */
export async function removeAll(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch {
    // Already gone.
  }
}

/** Whether `path` is an existing directory. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Find `command` on `PATH` like a shell would; returns its path or null.
 * Commands containing `/` are checked as given.
 */
export async function findOnPath(command: string): Promise<string | null> {
  const candidates = command.includes("/")
    ? [command]
    : (getEnv("PATH") ?? "").split(":").filter((dir) => dir !== "").map((dir) =>
      `${dir}/${command}`
    );
  for (const candidate of candidates) {
    try {
      const info = await Deno.stat(candidate);
      if (info.isFile && info.mode !== null && (info.mode & 0o111) !== 0) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/**
 * Start a loopback HTTP server on `port` (default 0: a free port); returns
 * its base URL and a stop function. Throws `Deno.errors.AddrInUse` when the
 * port is taken.
 */
export function serveLoopback(
  handler: (request: Request) => Response | Promise<Response>,
  port = 0,
): LoopbackServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handler);
  const addr = server.addr;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    stop: () => server.shutdown(),
  };
}

/**
 * Like {@link serveLoopback}, resolving once the server listens (Node's
 * adapter can only bind asynchronously; prefer this in runtime-neutral code).
 * Rejects with an error {@link isAddrInUse} recognizes when the port is taken.
 */
export function listenLoopback(
  handler: (request: Request) => Response | Promise<Response>,
  port = 0,
): Promise<LoopbackServer> {
  return Promise.resolve().then(() => serveLoopback(handler, port));
}

/** Whether `error` means a listening address is already in use. */
export function isAddrInUse(error: unknown): boolean {
  return error instanceof Deno.errors.AddrInUse;
}

/** Set an environment variable of this process (seen by in-process tools). */
export function setEnv(name: string, value: string): void {
  Deno.env.set(name, value);
}

/** Remove an environment variable of this process. */
export function deleteEnv(name: string): void {
  Deno.env.delete(name);
}
