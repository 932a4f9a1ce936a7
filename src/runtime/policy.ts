/**
 * The runtime policy, written once over the adapter's primitives ({@link Runtime}):
 * stop requests (signals and the parent's death, fanned out to every listener),
 * diagnostics on stderr, stdin as bounded text, the path search, files only their
 * owner may read, the prompt terminal. `./deno/mod.ts` is the adapter; the npm
 * build swaps it for `./node/mod.ts`, so this file runs unchanged on both.
 *
 * @module
 */

import { dirname } from "node:path";
import { runtime } from "./deno/mod.ts";
import { LineReader } from "./_line_reader.ts";
import { isExecutableFile, pathCandidates } from "./_path.ts";
import type { WatchTimers } from "./parent_watch.ts";
import { stopRequests } from "./stop_requests.ts";
import { decodeUtf8Strict } from "../protocol/utf8.ts";
import { terminalText } from "../text/terminal_text.ts";
import type { StopSignal, TerminalOpening } from "./types.ts";
import { userDirFrom, type UserDirKind } from "./user_dirs.ts";

export type { UserDirKind } from "./user_dirs.ts";

/** Real timers for the parent watch: unref'd, so they never keep the process alive. */
const unrefTimers: WatchTimers = {
  every(fn, ms) {
    const timer = setInterval(fn, ms);
    runtime.unrefTimer(timer);
    return () => clearInterval(timer);
  },
  after(fn, ms) {
    const timer = setTimeout(fn, ms);
    runtime.unrefTimer(timer);
    return () => clearTimeout(timer);
  },
};

// The parent pid is read when the adapter loads, at the start.
const stops = stopRequests({
  startPpid: runtime.ppid(),
  ppid: () => runtime.ppid(),
  onSignal: (signal, listener) => runtime.onSignal(signal, listener),
  timers: unrefTimers,
  warn: (line) => writeStderrLine(line),
});

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
  return stops.onInterrupt(listener);
}

/**
 * The signal that stopped this process first: `SIGTERM` (exit 143), `SIGINT`
 * (exit 130), or null when none came (a parent's death counts as SIGINT).
 */
export function stopSignal(): StopSignal | null {
  return stops.stopSignal();
}

const encoder = new TextEncoder();

/** Write all of `bytes` with `write`, which writes some at a time. */
function writeAllSync(write: (bytes: Uint8Array) => number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += write(bytes.subarray(offset));
}

/**
 * Write one line to stderr (diagnostics); never throws. Control characters are shown visibly
 * ({@link terminalText}): a line may carry a tool's, a server's or the model's text.
 */
export function writeStderrLine(text: string): void {
  try {
    const safe = terminalText(text);
    writeAllSync(runtime.writeStderrSync, encoder.encode(safe.endsWith("\n") ? safe : safe + "\n"));
  } catch {
    // stderr is gone: nothing else to report to.
  }
}

/** Read all of stdin as UTF-8 text, at most `maxBytes` bytes (throws RangeError beyond). */
export async function readStdinText(maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop by the throw cancels the stream.
  for await (const chunk of runtime.stdin()) {
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
  return decodeUtf8Strict(all);
}

/**
 * Write a UTF-8 text file only its owner may read and write (`0600`; its missing parent
 * directories are created `0700`), for the host's credentials. Not atomic.
 */
export async function writePrivateTextFile(path: string, text: string): Promise<void> {
  await runtime.makeDirs(dirname(path), 0o700);
  await runtime.writeTextFile(path, text, 0o600);
  // `mode` applies to a new file only: an existing one keeps its bits unless changed here.
  if (runtime.os !== "windows") await runtime.chmod(path, 0o600);
}

/** Remove `path` recursively; never throws. */
export async function removeAll(path: string): Promise<void> {
  try {
    await runtime.remove(path);
  } catch {
    // Already gone.
  }
}

/** Whether `path` is an existing directory. */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await runtime.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/**
 * Find `command` on `path` (default: `PATH`) like a shell would; returns its path or null.
 * Commands containing `/` are checked as given.
 */
export async function findOnPath(
  command: string,
  path: string | undefined = runtime.env("PATH"),
): Promise<string | null> {
  for (const candidate of pathCandidates(command, path)) {
    try {
      if (isExecutableFile(await runtime.stat(candidate))) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}

/**
 * The host's per-user directory of `kind` (`cache`, `config`, `state`; not
 * created), or null when it cannot be known without a permission this
 * process lacks. Never inside a user's project.
 */
export function userDir(
  kind: UserDirKind,
  env: (name: string) => string | undefined = runtime.envIfGranted,
): string | null {
  return userDirFrom(kind, { env, os: runtime.os });
}

/**
 * Open a terminal for `--approve ask` prompts (on Deno stdin and stderr when both are
 * terminals, else `/dev/tty`; on Node.js `/dev/tty`); when none works, the reason (see
 * {@link TerminalOpening}). The question never goes to stdout.
 */
export function openTerminal(): TerminalOpening {
  const tty = runtime.openTty();
  if (typeof tty === "string") return { terminal: null, reason: tty };
  const lines = new LineReader(async () => {
    const buffer = new Uint8Array(256);
    const n = await tty.read(buffer);
    return n === null ? null : buffer.subarray(0, n);
  });
  return {
    terminal: {
      ask(question: string): Promise<string | null> {
        writeAllSync((bytes) => tty.writeSync(bytes), encoder.encode(question));
        return lines.next();
      },
      close() {
        try {
          tty.close();
        } catch {
          // Already closed.
        }
      },
    },
  };
}
