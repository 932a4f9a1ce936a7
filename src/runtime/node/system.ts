/**
 * The process-wide runtime facilities on Node.js: the `node:*` counterpart
 * of `../system.ts`, with the same exports.
 *
 * @module
 */

import { writeSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isatty } from "node:tty";
import type { LoopbackServer, RuntimeName, StopSignal } from "../types.ts";
import { terminalText } from "../../text/terminal_text.ts";
import { userDirFrom, type UserDirKind } from "../user_dirs.ts";
import { watchParent, type WatchTimers } from "../parent_watch.ts";

export type { UserDirKind } from "../user_dirs.ts";
export type {
  LoopbackServer,
  NoTerminalReason,
  RuntimeName,
  StopSignal,
  Terminal,
  TerminalOpening,
} from "../types.ts";

/** Which runtime this adapter is for: `"node"`. */
export function runtimeName(): RuntimeName {
  return "node";
}

/** Read an environment variable; undefined when unset. */
export function getEnv(name: string): string | undefined {
  return process.env[name];
}

/** The current working directory. */
export function currentDir(): string {
  return process.cwd();
}

/** Read an environment variable; undefined when unset (Node.js has no env permission). */
export function getEnvIfGranted(name: string): string | undefined {
  return process.env[name];
}

/** The operating system: `"linux"`, `"darwin"`, `"windows"`, … */
export function osName(): string {
  return process.platform === "win32" ? "windows" : process.platform;
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
  return realpath(path);
}

/** The command-line arguments (after the script). */
export function commandArgs(): string[] {
  return process.argv.slice(2);
}

/** Exit the process with `code`. */
export function exitProcess(code: number): never {
  process.exit(code);
}

/** The path of the running runtime executable (deno or node). */
export function runtimeExecutable(): string {
  return process.execPath;
}

/** The listeners of {@link onInterrupt}, and the parent watch that runs while there are any. */
const interruptListeners = new Set<() => void>();
let stopParentWatch: (() => void) | null = null;
/** The parent pid this process started with (read when the adapter loads, at the start). */
const startPpid = process.ppid;

/** Real timers for the parent watch: unref'd, so they never keep the process alive. */
const unrefTimers: WatchTimers = {
  every(fn, ms) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  after(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** The stop signal that came first (SIGINT or SIGTERM), or null. */
let firstStopSignal: StopSignal | null = null;

/** As in `../system.ts`: the signal that stopped this process first, or null. */
export function stopSignal(): StopSignal | null {
  return firstStopSignal;
}

/**
 * Listen for a stop request; returns a function removing the listener: SIGINT,
 * SIGTERM, or the death of the parent process (as in `../system.ts`: a first Ctrl-C,
 * then 5 s later a second).
 */
export function onInterrupt(listener: () => void): () => void {
  const handler = () => listener();
  const onInt = () => {
    firstStopSignal ??= "SIGINT";
    listener();
  };
  const onTerm = () => {
    firstStopSignal ??= "SIGTERM";
    listener();
  };
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  interruptListeners.add(handler);
  stopParentWatch ??= watchParent({
    ppid: () => process.ppid,
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
    interruptListeners.delete(handler);
    if (interruptListeners.size === 0) {
      stopParentWatch?.();
      stopParentWatch = null;
    }
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  };
}

/** Whether stdin is a terminal. */
export function stdinIsTerminal(): boolean {
  return isatty(0);
}

/** Whether stdout is a terminal. */
export function stdoutIsTerminal(): boolean {
  return isatty(1);
}

/** Whether stderr is a terminal. */
export function stderrIsTerminal(): boolean {
  return isatty(2);
}

/** stdin as a byte stream (read it once). */
export function stdinStream(): AsyncIterable<Uint8Array> {
  return process.stdin as AsyncIterable<Uint8Array>;
}

/** Read all of stdin as UTF-8 text, at most `maxBytes` bytes (throws RangeError beyond). */
export async function readStdinText(maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) {
      process.stdin.destroy();
      throw new RangeError(`Standard input exceeds ${maxBytes} bytes`);
    }
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
export function writeStdout(bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(bytes, (error) => error ? reject(error) : resolve());
  });
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
    while (offset < bytes.length) offset += writeSync(2, bytes, offset);
  } catch {
    // stderr is gone: nothing else to report to.
  }
}

/** Read a UTF-8 text file. */
export function readTextFile(path: string): Promise<string> {
  return readFile(path, "utf8");
}

/** Write a UTF-8 text file (create or truncate). */
export function writeTextFile(path: string, text: string): Promise<void> {
  return writeFile(path, text, "utf8");
}

/**
 * Write a UTF-8 text file only its owner may read and write (`0600`; its missing parent
 * directories are created `0700`), for the host's credentials. Not atomic.
 */
export async function writePrivateTextFile(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, text, { encoding: "utf8", mode: 0o600 });
  // `mode` applies to a new file only: an existing one keeps its bits unless changed here.
  if (process.platform !== "win32") await chmod(path, 0o600);
}

/** Create a temporary directory with `prefix`; returns its path. */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Remove `path` recursively; never throws. */
export async function removeAll(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch {
    // Already gone.
  }
}

/** Whether `path` is an existing directory. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
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
      const info = await stat(candidate);
      if (info.isFile() && (info.mode & 0o111) !== 0) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/**
 * Not available on Node.js, which binds a port only asynchronously: always
 * throws. Use {@link listenLoopback}.
 */
export function serveLoopback(
  _handler: (request: Request) => Response | Promise<Response>,
  _port = 0,
): LoopbackServer {
  throw new Error("Synchronous loopback server is not available on Node.js: use listenLoopback");
}

async function toRequest(incoming: IncomingMessage, base: string): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = incoming.method ?? "GET";
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const chunks: Uint8Array[] = [];
    for await (const chunk of incoming as AsyncIterable<Uint8Array>) chunks.push(chunk);
    body = new Uint8Array(Buffer.concat(chunks));
  }
  return new Request(new URL(incoming.url ?? "/", base), {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

async function respond(
  handler: (request: Request) => Response | Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  base: string,
): Promise<void> {
  try {
    const response = await handler(await toRequest(incoming, base));
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.flushHeaders();
    // Streamed as it comes (an SSE stream included); a client that goes away cancels the body,
    // as Deno.serve does, so the handler learns that no one reads it.
    const reader = response.body?.getReader();
    const gone = () =>
      void reader?.cancel(new Error("The client closed the connection")).catch(() => {});
    outgoing.once("close", gone);
    try {
      while (reader !== undefined) {
        const { value, done } = await reader.read();
        if (done) break;
        outgoing.write(value);
      }
    } finally {
      outgoing.off("close", gone);
    }
    outgoing.end();
  } catch (error) {
    writeStderrLine(`Loopback server handler failed: ${String(error)}`);
    if (!outgoing.headersSent) outgoing.writeHead(500);
    outgoing.end();
  }
}

/**
 * Start a loopback HTTP server on `port` (default 0: a free port); resolves
 * with its base URL and a stop function once it listens. Rejects with an
 * error {@link isAddrInUse} recognizes when the port is taken.
 */
export function listenLoopback(
  handler: (request: Request) => Response | Promise<Response>,
  port = 0,
): Promise<LoopbackServer> {
  return new Promise((resolve, reject) => {
    let base = "http://127.0.0.1";
    const server = createServer((incoming, outgoing) => {
      void respond(handler, incoming, outgoing, base);
    });
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address !== null ? address.port : port;
      base = `http://127.0.0.1:${bound}`;
      resolve({
        url: base,
        stop: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Whether `error` means a listening address is already in use. */
export function isAddrInUse(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "EADDRINUSE";
}

/** Set an environment variable of this process (seen by in-process tools). */
export function setEnv(name: string, value: string): void {
  process.env[name] = value;
}

/** Remove an environment variable of this process. */
export function deleteEnv(name: string): void {
  delete process.env[name];
}
