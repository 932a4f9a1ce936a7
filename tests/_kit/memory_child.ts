/**
 * In-memory child handles (test helper): a {@link ChildHandle} whose stdin and stdout are
 * in-memory streams to a backend served in this process, so `BackendRun` runs against it
 * without spawning anything (`BackendStartOptions.backend`).
 *
 * The handle behaves as a process does for the host: stdin's close is the backend's EOF;
 * `exited` resolves when the backend's serve function resolves (its exit code) or when the
 * handle is killed (128 + the signal's number, as Deno reports it), and then stdout ends.
 *
 * @module
 */

import type { ChildHandle, ExitInfo } from "../../src/runtime/mod.ts";

/** A backend's side of the pipes. */
export interface BackendIo {
  /** What the host writes (the child's stdin). */
  readonly stdin: ReadableStream<Uint8Array>;
  /** Where the backend writes (the child's stdout). */
  readonly stdout: WritableStream<Uint8Array>;
}

/** An in-memory child, with what was done to it. */
export interface MemoryChild extends ChildHandle {
  /** The signals sent with `kill`, in order. */
  readonly signals: readonly string[];
  /** Whether the host closed the child's stdin (EOF). */
  readonly stdinClosed: boolean;
}

/**
 * `Deno.test` permissions for tests of in-memory children: everything but spawning (and the
 * network and FFI), so a spawn anywhere in the code under test fails the test.
 */
export const NO_SPAWN: Deno.PermissionOptionsObject = {
  read: true,
  write: true,
  env: true,
  sys: true,
  import: true,
  run: false,
  net: false,
  ffi: false,
};

const SIGNAL_CODES = { SIGINT: 130, SIGKILL: 137, SIGTERM: 143 } as const;

/** A child whose backend is `serve` (resolves with its exit code) over in-memory streams. */
export function memoryChild(serve: (io: BackendIo) => Promise<number>): MemoryChild {
  let toBackend!: ReadableStreamDefaultController<Uint8Array>;
  let toHost!: ReadableStreamDefaultController<Uint8Array>;
  let inputOpen = true;
  let outputOpen = true;
  let hasExited = false;
  let stdinClosed = false;
  const signals: string[] = [];
  const { promise: exited, resolve } = Promise.withResolvers<ExitInfo>();
  const endInput = () => {
    if (!inputOpen) return;
    inputOpen = false;
    try {
      toBackend.close();
    } catch {
      // The backend stopped reading (it exited).
    }
  };
  const exit = (info: ExitInfo) => {
    if (hasExited) return;
    hasExited = true;
    endInput();
    if (outputOpen) {
      outputOpen = false;
      try {
        toHost.close();
      } catch {
        // The host cancelled its reading (a client closing after a protocol violation).
      }
    }
    resolve(info);
  };
  const backendStdin = new ReadableStream<Uint8Array>({ start: (c) => void (toBackend = c) });
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (toHost = c) });
  const stdin = new WritableStream<Uint8Array>({
    write(chunk) {
      if (!inputOpen) return;
      try {
        toBackend.enqueue(chunk.slice());
      } catch {
        // The backend stopped reading: the bytes are lost, as on a pipe nobody reads.
      }
    },
    close() {
      stdinClosed = true;
      endInput();
    },
    abort() {
      stdinClosed = true;
      endInput();
    },
  });
  const backendStdout = new WritableStream<Uint8Array>({
    write(chunk) {
      // After the exit, or once the host stopped reading, the bytes are lost, as a dead
      // process's or a closed pipe's would be.
      if (!outputOpen) return;
      try {
        toHost.enqueue(chunk.slice());
      } catch {
        outputOpen = false;
      }
    },
  });
  serve({ stdin: backendStdin, stdout: backendStdout }).then(
    (code) => exit({ code, signal: null }),
    () => exit({ code: 1, signal: null }),
  );
  return {
    pid: 0,
    stdin,
    stdout,
    stderr: null,
    exited,
    get hasExited() {
      return hasExited;
    },
    get signals() {
      return signals;
    },
    get stdinClosed() {
      return stdinClosed;
    },
    kill(signal = "SIGTERM") {
      signals.push(signal);
      exit({ code: SIGNAL_CODES[signal], signal });
    },
  };
}
