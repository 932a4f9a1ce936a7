/**
 * How the conformance suite reaches a backend: a child over real pipes, or (reference backend
 * only) the backend's `connect()` served in this process over in-memory pipes.
 *
 * Both give the same {@link Transport}: stdin, stdout, stderr, an exit status and a kill. The
 * in-process one runs the reference backend as `main.ts` would (the workspace's cwd, an env
 * built like the child's, self-check from `MAGI_BACKEND_SELF_CHECK`), with pipes that hold
 * 64 KiB like a Linux pipe, so a client that stops reading stalls the backend's writes. Launch
 * checks (arguments, stdio kinds) and anything else only a process has need a child.
 *
 * @module
 */

import { connect } from "../../src/reference_backend/server/server.ts";
import { backendCommand, baseEnv, REFERENCE } from "./_command.ts";

/** A backend's exit status (the shape of `Deno.CommandStatus`). */
export type ExitStatus = Deno.CommandStatus;

/** One running backend, whichever way it runs. */
export interface Transport {
  /** Whether it is a child process. */
  readonly process: boolean;
  /** Protocol input. */
  readonly stdin: WritableStream<Uint8Array>;
  /** Protocol output; ends when the backend exits. */
  readonly stdout: ReadableStream<Uint8Array>;
  /** Diagnostics; ends when the backend exits. */
  readonly stderr: ReadableStream<Uint8Array>;
  /** Resolves once the backend exited. */
  readonly status: Promise<ExitStatus>;
  /** Kill it (in-process: end it as the signal would, at once). */
  kill(signal: Deno.Signal): void;
  /** Resolves once everything it started has ended (after {@link status}). */
  finished(): Promise<void>;
}

/** How to start one backend. */
export interface TransportOptions {
  /** Working directory. */
  readonly cwd: string;
  /** Environment on top of the base one (`HOME`, `MC_HOME`, the test's variables). */
  readonly env: Readonly<Record<string, string>>;
  /** Remove `MAGI_BACKEND_SELF_CHECK` (the client is the checker). */
  readonly noSelfCheck?: boolean;
  /** Arguments after the backend command line (a child only). */
  readonly extraArgs?: readonly string[];
  /** Start a child even for the reference backend (process-level behaviour). */
  readonly process?: boolean;
}

/** The environment a backend gets: this process's, the suite's base, then `env`. */
export function backendEnv(options: TransportOptions): Record<string, string> {
  const env: Record<string, string> = { ...Deno.env.toObject(), ...baseEnv() };
  delete env.MAGI_SCENARIO;
  delete env.RUST_BACKTRACE;
  if (options.noSelfCheck) delete env.MAGI_BACKEND_SELF_CHECK;
  Object.assign(env, options.env);
  return env;
}

/** Start a backend: a child unless the reference backend may run in-process. */
export function startTransport(options: TransportOptions): Promise<Transport> {
  if (options.process === true || !REFERENCE) return Promise.resolve(childTransport(options));
  if (options.extraArgs !== undefined) {
    throw new Error("Launch arguments need a child: pass process: true");
  }
  return inProcessTransport(options);
}

function childTransport(options: TransportOptions): Transport {
  const [program, ...args] = backendCommand();
  const child = new Deno.Command(program!, {
    args: [...args, ...(options.extraArgs ?? [])],
    cwd: options.cwd,
    env: backendEnv(options),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return {
    process: true,
    stdin: child.stdin,
    stdout: child.stdout,
    stderr: child.stderr,
    status: child.status,
    kill: (signal) => child.kill(signal),
    finished: () => child.status.then(() => {}),
  };
}

/** Bytes a pipe holds before its writer waits (Linux: 16 pages). */
const PIPE_BYTES = 64 * 1024;

/**
 * An in-memory pipe that behaves like a real one: a writer waits while it holds
 * {@link PIPE_BYTES}; a read takes everything buffered (at most that much) as one chunk, so
 * frames written one by one arrive coalesced when the reader is slower; when the writer's
 * process ends, the reader gets what was written, then EOF; when the reader cancels or its
 * process ends, writes fail (EPIPE).
 */
class Pipe {
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #closed = false;
  #broken = false;
  #waiters = new Set<() => void>();

  readonly readable: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      while (this.#bytes === 0 && !this.#closed && !this.#broken) await this.#changed();
      if (this.#bytes === 0) return controller.close();
      controller.enqueue(this.#take());
    },
    cancel: () => this.break(),
  }, { highWaterMark: 0 });

  readonly writable: WritableStream<Uint8Array> = new WritableStream<Uint8Array>({
    write: async (chunk) => {
      while (this.#bytes >= PIPE_BYTES && !this.#closed && !this.#broken) await this.#changed();
      if (this.#closed || this.#broken) throw new Error("Broken pipe");
      this.#chunks.push(chunk.slice());
      this.#bytes += chunk.length;
      this.#notify();
    },
    close: () => this.close(),
    abort: () => this.close(),
  });

  /** The writer's end is closed (EOF after what was written). */
  close(): void {
    this.#closed = true;
    this.#notify();
  }

  /** The reader's end is closed: later writes fail, buffered bytes are dropped. */
  break(): void {
    this.#broken = true;
    this.#chunks = [];
    this.#bytes = 0;
    this.#notify();
  }

  #take(): Uint8Array {
    const size = Math.min(this.#bytes, PIPE_BYTES);
    const out = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const head = this.#chunks[0]!;
      const n = Math.min(head.length, size - at);
      out.set(head.subarray(0, n), at);
      at += n;
      if (n === head.length) this.#chunks.shift();
      else this.#chunks[0] = head.subarray(n);
    }
    this.#bytes -= size;
    this.#notify();
    return out;
  }

  #changed(): Promise<void> {
    return new Promise((resolve) => this.#waiters.add(resolve));
  }

  #notify(): void {
    const waiting = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiting) wake();
  }
}

const SIGNALS: Partial<Record<Deno.Signal, number>> = { SIGTERM: 15, SIGKILL: 9, SIGINT: 2 };

async function inProcessTransport(options: TransportOptions): Promise<Transport> {
  const env = backendEnv(options);
  // A child's cwd is the canonical path getcwd() gives (empty when it vanished).
  const cwd = await Deno.realPath(options.cwd).catch(() => "");
  const stdin = new Pipe();
  const stdout = new Pipe();
  const encoder = new TextEncoder();
  let stderrOut!: ReadableStreamDefaultController<Uint8Array>;
  const stderr = new ReadableStream<Uint8Array>({ start: (c) => void (stderrOut = c) });
  let exited: ExitStatus | undefined;
  const { promise: status, resolve: setStatus } = Promise.withResolvers<ExitStatus>();
  const connection = connect({
    stdin: stdin.readable,
    stdout: stdout.writable,
    cwd,
    env: (name) => env[name],
    selfCheck: env.MAGI_BACKEND_SELF_CHECK === "1",
    stderr: (line) => {
      if (exited === undefined) stderrOut.enqueue(encoder.encode(`${line}\n`));
    },
    exit: (code) => end(code, null),
  });
  let disposed: Promise<void> | undefined;
  // What a child's exit does at once: leases released (main.ts), pipes closed, status known;
  // then the connection is disposed of (the work a child's exit would have cut short).
  function end(code: number, signal: Deno.Signal | null): void {
    if (exited !== undefined) return;
    connection.leases.releaseAllSync();
    exited = { success: code === 0 && signal === null, code, signal };
    stdout.close();
    stdin.break();
    stderrOut.close();
    setStatus(exited);
    disposed = connection.dispose();
  }
  void connection.exit.then((code) => end(code, null));
  return {
    process: false,
    stdin: stdin.writable,
    stdout: stdout.readable,
    stderr,
    status,
    kill: (signal) => end(128 + (SIGNALS[signal] ?? 15), signal),
    finished: async () => {
      await status;
      await disposed;
    },
  };
}
