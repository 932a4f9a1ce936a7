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
 * @module
 */

import { decodeRequest } from "../../protocol/envelope.ts";
import { RequestIdRegistry } from "../../protocol/ids.ts";
import { CLEANUP_WAIT_MS, OUTPUT_DEADLINE_MS } from "../../protocol/limits.ts";
import { readFrames } from "../../transport/reader.ts";
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
}

/** Serve one connection; resolves with the process exit code. */
export function serve(options: ServeOptions): Promise<number> {
  const { promise: exit, resolve: finish } = Promise.withResolvers<number>();
  const outbox = new Outbox(options.stdout, {
    onFatal: () => finish(1),
    selfCheck: options.selfCheck ?? false,
  });
  const backend = new Backend(outbox, {
    cwd: options.cwd,
    env: options.env,
  });
  const ids = new RequestIdRegistry();
  const readAbort = new AbortController();
  let closing = false;

  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    readAbort.abort();
    const finished = await backend.stop(CLEANUP_WAIT_MS);
    const drained = await outbox.drain(OUTPUT_DEADLINE_MS);
    finish(finished && drained ? 0 : 1);
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
      if (closing) break;
      if (item.kind === "frame") {
        onFrame(item.text);
        continue;
      }
      outbox.fail(null, item.code);
      if (item.fatal) break;
    }
    await close();
  };
  readLoop().catch(() => finish(1));
  return exit;
}
