/**
 * The types of `AgentConnection`'s constructor and requests: the pipes it runs over
 * ({@link AgentTransport}), its options, a request's options and the event listener. Kept apart
 * so that `connection.ts` holds only the connection.
 *
 * @module
 */

import type { ExitInfo } from "../runtime/mod.ts";
import type { AgentEvent } from "./events.ts";

/** The pipes of a running backend. */
export interface AgentTransport {
  /** The backend's stdin (client → backend). */
  stdin: WritableStream<Uint8Array>;
  /** The backend's stdout (backend → client). */
  stdout: ReadableStream<Uint8Array>;
  /** Resolves when the backend process exits; used to report its exit code. */
  exited?: Promise<ExitInfo>;
  /** Called for every chunk read from `stdout` (e.g. a liveness watch); must not throw. */
  onActivity?: () => void;
  /**
   * Bytes written to `stdin` that have not yet reached the OS (`ChildHandle.stdinUnflushed`). With
   * it, the connection writes result parts into memory it uses again once their bytes left, so it
   * must be exact in one direction: a write counts here before its promise resolves, and bytes are
   * taken off in write order, only once nothing in this process reads them any more (Node.js'
   * `writableLength` does this). Omit it when unsure: memory is then never used again.
   */
  stdinUnflushed?: () => number;
}

/** Options of `LocalAgentClient` (and `AgentConnection`). */
export interface ClientOptions {
  /** Events buffered for the `events()` consumer; default 4096. */
  maxQueuedEvents?: number;
  /** Outbound frames waiting for the pipe; default 1024 (pipelined result parts). */
  maxPendingWrites?: number;
  /** Absolute deadline of one outbound frame from enqueue, ms; default 10000. */
  writeDeadlineMs?: number;
  /** How long to wait for the exit status after stdout ends, ms; default 2000. */
  exitWaitMs?: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** Stop waiting for the response (the request is not retracted on the wire). */
  signal?: AbortSignal;
  /**
   * Called synchronously with the request's fresh ID before it is written (e.g. to
   * target it with `operation.cancel`).
   */
  onRequestId?: (id: string) => void;
}

/** A listener for validated events; called synchronously in frame order. */
export type EventListener = (event: AgentEvent) => void;
