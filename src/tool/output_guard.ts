/**
 * Keep inline tools' ordinary output off the host's stdout, and their exit
 * calls from ending the host.
 *
 * While `run`/`demo`/`call`/`batch`/`mcp` (stdio) work, stdout carries the
 * host's own output only. The console is redirected by `console.ts`; this
 * guard redirects the stdout objects: `Deno.stdout` (`write`, `writeSync`,
 * `writable`) and `process.stdout.write` go to stderr, and the guard's own
 * {@link OutputGuard.writeStdout} (the summary writer's sink) keeps the real
 * writer. `Deno.exit` and `process.exit` throw a {@link ToolExitAttempt}
 * instead of ending the process: called inside a tool's `run`, the call fails
 * (`tool_failed`); called from a stray callback, the uncaught error is
 * reported on stderr and the host goes on.
 *
 * What it does not do: keep code in the host process off fd 1. An inline tool
 * is trusted host code; a write that bypasses these objects — `node:fs`
 * `writeSync(1, …)`, opening `/dev/stdout` or `/proc/self/fd/1`, FFI, a child
 * process started with an inherited stdout — reaches stdout unchanged and can
 * forge summary records (docs/cli.md, "Tool output"). Process-isolated tools
 * need none of this: their stdout is a private pipe to the host, captured as
 * `tool.log`. Works on Deno and Node.js (feature-detected).
 *
 * @module
 */

import process from "node:process";

/** A tool (or any code but the host's exit path) called `Deno.exit`/`process.exit`. */
export class ToolExitAttempt extends Error {
  /** The exit code it asked for. */
  readonly code: number | undefined;
  /** Create the error for an exit with `code`. */
  constructor(code: number | undefined) {
    super(
      `Called exit(${code ?? ""}) inside the tool host: a tool must not end the host process`,
    );
    this.name = "ToolExitAttempt";
    this.code = code;
  }
}

/** The guard installed by {@link guardOutput}. */
export interface OutputGuard {
  /** Write all of `bytes` to the real stdout (the only writer that still can). */
  writeStdout(bytes: Uint8Array): Promise<void>;
  /** Put everything back (idempotent); the host may then write and exit normally. */
  restore(): void;
}

type Patch = () => void;

/** Replace `object[key]` by `value` (an own property); returns the undo. */
function patch(object: object, key: string, descriptor: PropertyDescriptor): Patch {
  const own = Object.getOwnPropertyDescriptor(object, key);
  Object.defineProperty(object, key, { configurable: true, ...descriptor });
  return () => {
    if (own !== undefined) Object.defineProperty(object, key, own);
    else delete (object as Record<string, unknown>)[key];
  };
}

/**
 * Route every other stdout writer to stderr and make exits throw, until
 * {@link OutputGuard.restore}.
 *
 * @example
 * ```ts ignore
 * const guard = guardOutput();
 * try {
 *   const writer = new SummaryWriter(guard.writeStdout);
 *   // ... run the turn ...
 * } finally {
 *   guard.restore();
 * }
 * ```
 */
export function guardOutput(): OutputGuard {
  const undo: Patch[] = [];
  let writeStdout: (bytes: Uint8Array) => Promise<void>;
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  if (deno !== undefined) {
    const stdout = deno.stdout;
    const stderr = deno.stderr;
    const write = stdout.write.bind(stdout);
    writeStdout = async (bytes) => {
      let offset = 0;
      while (offset < bytes.length) offset += await write(bytes.subarray(offset));
    };
    undo.push(
      patch(stdout, "write", { writable: true, value: (p: Uint8Array) => stderr.write(p) }),
      patch(stdout, "writeSync", {
        writable: true,
        value: (p: Uint8Array) => stderr.writeSync(p),
      }),
      patch(stdout, "writable", { get: () => stderr.writable }),
      patch(deno, "exit", {
        writable: true,
        value: (code?: number) => {
          throw new ToolExitAttempt(code);
        },
      }),
    );
  } else {
    const write = process.stdout.write.bind(process.stdout);
    writeStdout = (bytes) =>
      new Promise((resolve, reject) => {
        write(bytes, (error) => error ? reject(error) : resolve());
      });
  }
  undo.push(
    patch(process.stdout, "write", {
      writable: true,
      value: process.stderr.write.bind(process.stderr),
    }),
    patch(process, "exit", {
      writable: true,
      value: (code?: number) => {
        throw new ToolExitAttempt(code);
      },
    }),
  );
  // An exit attempt from a stray callback is an uncaught error: report it, keep the host.
  const onError = (event: Event) => {
    const error = (event as ErrorEvent).error ?? (event as PromiseRejectionEvent).reason;
    if (!(error instanceof ToolExitAttempt)) return;
    event.preventDefault();
    process.stderr.write(`magi-tools: ${error.message}\n`);
  };
  const target = globalThis as unknown as EventTarget;
  const canListen = typeof target.addEventListener === "function";
  if (canListen) {
    target.addEventListener("error", onError);
    target.addEventListener("unhandledrejection", onError);
  }
  let restored = false;
  return {
    writeStdout: (bytes) => writeStdout(bytes),
    restore() {
      if (restored) return;
      restored = true;
      for (const step of undo.reverse()) step();
      if (canListen) {
        target.removeEventListener("error", onError);
        target.removeEventListener("unhandledrejection", onError);
      }
    },
  };
}
