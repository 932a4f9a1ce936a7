/**
 * The read loop and connection lifecycle of one child: frames in, admission through the
 * request ID registry and the gate, dispatch to the backend, and closing (shutdown, EOF,
 * fatal input errors) with bounded cleanup and draining.
 *
 * Reading never waits for output: requests (`turn.cancel` and `shutdown` included) are
 * admitted while output is slow or stalled. The writer alone enforces the 32-frame bound
 * and the 2,000 ms deadline (exit 1); callers bound their in-flight requests, and run
 * events leave 8 of the 32 frames to responses (see `channel.ts`).
 *
 * Exit codes: 0 after a clean close whose output drained within 2,000 ms (also after
 * `protocol_mismatch`, `request_limit` and `frame_too_large`, which close the connection
 * once their error is written); 1 on transport failure or when cleanup/draining expired.
 *
 * A child serves one connection and exits with its code ({@link serve}); a host that serves
 * in-process ({@link connect}) also disposes of the connection, which ends what a child's exit
 * would have cut short and releases its leases.
 *
 * @module
 */

import { decodeRequest } from "../../protocol/envelope.ts";
import { RequestIdRegistry } from "../../protocol/ids.ts";
import { CLEANUP_WAIT_MS, OUTPUT_DEADLINE_MS } from "../../protocol/limits.ts";
import { readFrames } from "../../transport/reader.ts";
import { LeaseTable } from "../sessions/leases.ts";
import { Backend } from "./backend.ts";
import { admitRequest } from "./dispatch.ts";
import { Outbox } from "./outbox.ts";

/** Options of {@link serve}. */
export interface ServeOptions {
  /** Protocol input (the child's stdin). */
  stdin: ReadableStream<Uint8Array>;
  /** Protocol output (the child's stdout). */
  stdout: WritableStream<Uint8Array>;
  /** The child's working directory. */
  cwd: string;
  /** Environment lookup. */
  env: (name: string) => string | undefined;
  /** Validate own output against the schemas. */
  selfCheck?: boolean;
  /** Where diagnostic lines go (the child's stderr); default `console.error`. */
  stderr?: (line: string) => void;
  /**
   * End the process at once with `code` (70 after a self-check violation, whose frame is not
   * written). Default `Deno.exit`; an in-process host records the code and disposes of the
   * connection instead.
   */
  exit?: (code: number) => void;
}

/** One served connection. */
export interface Connection {
  /** Resolves with the exit code as soon as it is known (a child exits with it then). */
  readonly exit: Promise<number>;
  /** The writer leases the connection holds (a child releases them before exiting). */
  readonly leases: LeaseTable;
  /**
   * End the connection as a child's exit would (stop reading, stop the backend's runs,
   * operations and timers, release the leases) and resolve once all of it has ended.
   */
  dispose(): Promise<void>;
}

/** Serve one connection; resolves with the process exit code. */
export function serve(options: ServeOptions): Promise<number> {
  return connect(options).exit;
}

/** Serve one connection, for a host that disposes of it ({@link Connection}). */
export function connect(options: ServeOptions): Connection {
  const { promise: exit, resolve: finish } = Promise.withResolvers<number>();
  const stderr = options.stderr ?? console.error;
  const exitNow = options.exit ?? ((code: number) => Deno.exit(code));
  const leases = new LeaseTable();
  const outbox = new Outbox(options.stdout, {
    onFatal: () => finish(1),
    selfCheck: options.selfCheck ?? false,
    onSelfCheckFailure: (message) => {
      stderr(message);
      exitNow(70);
    },
  });
  const backend = new Backend(outbox, {
    cwd: options.cwd,
    env: options.env,
    leases,
    stderr,
  });
  const ids = new RequestIdRegistry();
  const readAbort = new AbortController();
  let closing: Promise<void> | null = null;

  const close = (): Promise<void> => {
    closing ??= (async () => {
      readAbort.abort();
      const finished = await backend.stop(CLEANUP_WAIT_MS);
      const drained = await outbox.drain(OUTPUT_DEADLINE_MS);
      finish(finished && drained ? 0 : 1);
    })();
    return closing;
  };

  const onFrame = (text: string): void => {
    const request = decodeRequest(text);
    if (!request.ok) {
      // A well-formed envelope whose params are rejected (not an object, a duplicate key)
      // still retains its ID: reusing it is duplicate_id, and it counts toward the limit.
      const admission = request.id !== null && request.code === "invalid_params"
        ? ids.admit(request.id)
        : "ok";
      if (admission !== "ok") {
        outbox.fail(request.id, admission);
        if (admission === "request_limit") void close();
        return;
      }
      outbox.fail(request.id, request.code);
      if (request.close) void close();
      return;
    }
    const { id } = request;
    const admission = ids.admit(id);
    if (admission !== "ok") {
      outbox.fail(id, admission);
      if (admission === "request_limit") void close();
      return;
    }
    const gate = admitRequest(request, {
      gate: backend.admitted ? "admitted" : "uninitialized",
      negotiated: backend.negotiated,
    });
    if (!gate.ok) {
      outbox.fail(id, gate.code);
      return;
    }
    if (gate.method === "shutdown") {
      outbox.respond(id, { result: { state: "stopping" } });
      void close();
      return;
    }
    backend.handle(id, gate, (payload) => outbox.respond(id, payload));
  };

  const readLoop = async (): Promise<void> => {
    for await (const item of readFrames(options.stdin, { signal: readAbort.signal })) {
      if (closing !== null) break;
      if (item.kind === "frame") {
        onFrame(item.text);
        continue;
      }
      outbox.fail(null, item.code);
      if (item.fatal) break;
    }
    await close();
  };
  const reading = readLoop().catch(() => finish(1));
  return {
    exit,
    leases,
    async dispose() {
      await close();
      await reading;
      leases.releaseAllSync();
    },
  };
}
