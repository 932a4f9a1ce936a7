/**
 * `AgentConnection`: the connection half of the client of
 * `magi-code.local-agent` version 1 over a child's stdin/stdout. Correlates
 * responses by request ID (IDs are never reused), validates every output
 * frame strictly and fails closed, and delivers run events to synchronous
 * subscribers and a bounded queue.
 *
 * @module
 */

import { waitWithin } from "../async/deadline.ts";
import { TransientMap } from "../async/transient_map.ts";
import { isErrorCode, ProtocolError } from "../protocol/errors.ts";
import { OUTPUT_FRAME_BYTES, REQUEST_IDS } from "../protocol/limits.ts";
import type { JsonObject } from "../protocol/json.ts";
import {
  type InitializeResult,
  isMethod,
  type Method,
  type MethodParams,
  type MethodResult,
} from "../protocol/schemas/mod.ts";
import { readFrames } from "../transport/reader.ts";
import { FrameArena } from "../transport/frame_arena.ts";
import { COALESCE_BYTES, FrameWriter } from "../transport/writer.ts";
import type { ExitInfo } from "../runtime/mod.ts";
import {
  BackendExited,
  ClientClosed,
  ProtocolViolation,
  RequestBudgetExhausted,
} from "./errors.ts";
import type { AgentEvent } from "./events.ts";
import { EventQueue } from "./event_queue.ts";
import { encodeRequest, resultPartFault } from "./request_frame.ts";
import type {
  AgentTransport,
  ClientOptions,
  EventListener,
  RequestOptions,
} from "./connection_types.ts";
import { InFlightWindow } from "./_in_flight.ts";
import { type EventFrame, OutputValidator } from "./_output_validator.ts";
import {
  MAX_IN_FLIGHT_REQUESTS,
  PRIORITY_IN_FLIGHT_SLOTS,
  REQUEST_ID_RESERVE,
  RESERVE_METHODS,
} from "./request_bounds.ts";

export {
  MAX_IN_FLIGHT_REQUESTS,
  PRIORITY_IN_FLIGHT_SLOTS,
  REQUEST_ID_RESERVE,
} from "./request_bounds.ts";

export type {
  AgentTransport,
  ClientOptions,
  EventListener,
  RequestOptions,
} from "./connection_types.ts";

interface Pending {
  method: string;
  /** Whether the frame was handed to the writer (it counts as in flight until answered). */
  sent: boolean;
  /** `turn.cancel`, `status` or `shutdown`: may use the priority slots. */
  priority: boolean;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  abandoned: boolean;
  cleanup: () => void;
}

/**
 * One connection to a backend: request correlation, strict output
 * validation (fail closed), event delivery. {@link LocalAgentClient} adds a
 * typed method per operation.
 */
export class AgentConnection {
  #writer: FrameWriter;
  /** Large result parts' frames, side by side (written as one view), used again once they left. */
  #arena: FrameArena;
  /** Requests written and not yet answered, and those held back by the bound. */
  #window = new InFlightWindow<{ entry: Pending; bytes: Uint8Array }>(
    MAX_IN_FLIGHT_REQUESTS,
    PRIORITY_IN_FLIGHT_SLOTS,
  );
  /** A TransientMap, not a Map: an answered request's objects die young (see its module). */
  #pending = new TransientMap<Pending>();
  #nextId = 1;
  #idBudget: number = REQUEST_IDS;
  #idsSent = 0;
  /** The checks of every output frame (envelope order, results, events). */
  #check = new OutputValidator();
  #listeners = new Set<EventListener>();
  #queue: EventQueue;
  #failure: Error | null = null;
  #shutdownAcknowledged = false;
  #inputEnded = false;
  #exited: Promise<ExitInfo> | undefined;
  #exitWaitMs: number;
  #readAbort = new AbortController();
  #done: Promise<void>;

  /** Start reading `transport.stdout` at once. */
  constructor(transport: AgentTransport, options: ClientOptions = {}) {
    this.#queue = new EventQueue(options.maxQueuedEvents ?? 4096);
    this.#exited = transport.exited;
    this.#exitWaitMs = options.exitWaitMs ?? 2_000;
    this.#writer = new FrameWriter(transport.stdin, {
      maxPending: options.maxPendingWrites ?? 1024,
      deadlineMs: options.writeDeadlineMs ?? 10_000,
      // Pipelined result parts queued together go out in one write.
      batchBytes: COALESCE_BYTES,
      onFatal: (reason) => {
        this.#fail(new ClientClosed(`Cannot write to the backend: ${reason}`));
      },
      onWritten: (frame) => this.#arena.release(frame),
      ...(transport.stdinUnflushed && { unflushed: transport.stdinUnflushed }),
    });
    const writer = this.#writer;
    const collect = () => writer.collect();
    const idle = () => {
      writer.collect();
      return writer.pending === 0 && writer.flushing === 0 && this.#window.held === 0;
    };
    // Memory is used again only where the runtime tells which written bytes reached the pipe.
    this.#arena = new FrameArena(undefined, transport.stdinUnflushed && { idle, collect });
    this.#done = this.#readLoop(transport.stdout, transport.onActivity);
  }

  /** The backend's `instance_id`, once the first frame arrived. */
  get instanceId(): string | null {
    return this.#check.instanceId;
  }

  /** Why the client stopped, or null while it works. */
  get failure(): Error | null {
    return this.#failure;
  }

  /** Resolves when reading has stopped (stdout ended or the client failed). */
  get done(): Promise<void> {
    return this.#done;
  }

  /**
   * Request IDs this connection may still send: the backend's advertised
   * `limits.request_ids` (4096 until the `initialize` result arrives) minus
   * the requests sent. The last {@link REQUEST_ID_RESERVE} are only used by
   * `turn.cancel`, `status` and `shutdown`.
   */
  get remainingRequestIds(): number {
    return Math.max(0, this.#idBudget - this.#idsSent);
  }

  /** Best-effort `message.delta` events dropped because the consumer was slow. */
  get droppedDeltas(): number {
    return this.#queue.dropped;
  }

  /**
   * Validated events for one consumer, in order. Ends after `run` events stop
   * (stdout ended after a shutdown); throws the failure when the client fails.
   */
  events(): AsyncIterable<AgentEvent> {
    return this.#queue;
  }

  /** Run `send`: the requests it makes leave together (a result's parts: one write if they fit). */
  together<T>(send: () => T): T {
    return this.#writer.together(send);
  }

  /** Call `listener` synchronously for every validated event; returns an unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Send one request with a fresh ID and wait for its validated result.
   * Rejects with `ProtocolError(code)` for an error response, with
   * `ProtocolViolation`/`BackendExited`/`ClientClosed` when the connection
   * fails, with `RangeError` when the request frame would be too large, with
   * `RequestBudgetExhausted` (nothing sent) when the request would use a
   * reserved request ID (see {@link AgentConnection.remainingRequestIds}), and
   * with the signal's reason when `signal` aborts (the ID stays retired).
   *
   * Typed per method: `params` is {@link MethodParams} of `method` and the result is
   * {@link MethodResult} of `method`, checked against that method's schema on arrival.
   * An unknown method name (possible from JavaScript) rejects with `TypeError`.
   */
  request<M extends Method>(
    method: M,
    params: MethodParams<M>,
    options: RequestOptions = {},
  ): Promise<MethodResult<M>> {
    if (this.#failure !== null) return Promise.reject(this.#failure);
    if (this.#inputEnded) return Promise.reject(new ClientClosed("Input to the backend ended"));
    if (!isMethod(method)) {
      return Promise.reject(new TypeError(`Unknown method: ${method}`));
    }
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const toolLimits = this.#check.toolLimits;
    const fault = resultPartFault(method, params, toolLimits);
    if (fault !== null) return Promise.reject(fault);
    const remaining = this.remainingRequestIds;
    if (remaining <= (RESERVE_METHODS.has(method) ? 0 : REQUEST_ID_RESERVE)) {
      return Promise.reject(new RequestBudgetExhausted(method, remaining));
    }
    const id = `r${this.#nextId++}`;
    options.onRequestId?.(id);
    let bytes: Uint8Array;
    try {
      bytes = encodeRequest(id, method, params as JsonObject, toolLimits, this.#arena.take);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<MethodResult<M>>((resolve, reject) => {
      const signal = options.signal;
      const onAbort = () => {
        entry.abandoned = true;
        reject(signal?.reason ?? new DOMException("Aborted", "AbortError"));
      };
      const entry: Pending = {
        method,
        sent: false,
        priority: RESERVE_METHODS.has(method),
        // The result was validated against METHOD_SCHEMAS[method] before it gets here.
        resolve: (value) => resolve(value as MethodResult<M>),
        reject,
        abandoned: false,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#pending.set(id, entry);
      this.#idsSent++;
      if (this.#window.offer({ entry, bytes }, entry.priority)) this.#send(entry, bytes);
    });
  }

  /**
   * Stop the client: pending requests reject with `ClientClosed`, reading
   * stops, the backend's stdin closes (EOF). Does not kill the process.
   */
  async close(): Promise<void> {
    this.#fail(new ClientClosed("Client closed"));
    await this.#done;
  }

  /**
   * Close the backend's stdin (EOF) after the queued frames, and keep reading
   * its output until it ends. No request can be sent afterwards.
   */
  async endInput(): Promise<void> {
    this.#inputEnded = true;
    // Requests still held back go out before EOF (the backend is being shut down).
    for (const { entry, bytes } of this.#window.takeHeld()) this.#send(entry, bytes);
    await this.#writer.close();
  }

  /**
   * Wait up to `timeoutMs` until `stdin` took every queued request frame (its writes resolved;
   * bytes may still wait in a buffer of this process); false if it did not.
   */
  drain(timeoutMs: number): Promise<boolean> {
    return this.#writer.drain(timeoutMs);
  }

  async #readLoop(stdout: ReadableStream<Uint8Array>, onChunk?: () => void): Promise<void> {
    try {
      // One frame at a time through the async generator: an events() consumer gets to run
      // between the frames of one chunk, as synchronous subscribers do (record order).
      for await (
        const item of readFrames(stdout, {
          maxFrameBytes: OUTPUT_FRAME_BYTES - 1,
          signal: this.#readAbort.signal,
          onChunk: () => (this.#writer.hold(), onChunk?.()), // the parts answers free: one write
          onChunkEnd: () => this.#writer.release(),
        })
      ) {
        if (this.#failure !== null) break;
        if (item.kind === "error") {
          if (item.code === "incomplete_frame") break; // EOF mid-line: reported as an exit.
          this.#fail(new ProtocolViolation(`Invalid output line (${item.code})`));
          break;
        }
        this.#onFrame(item.text);
      }
    } catch (error) {
      if (this.#failure === null) {
        this.#fail(new ClientClosed("Cannot read from the backend", { cause: error }));
      }
    }
    if (this.#failure === null) await this.#onEnd();
  }

  async #onEnd(): Promise<void> {
    let info: ExitInfo | undefined;
    if (this.#exited !== undefined) info = await waitWithin(this.#exited, this.#exitWaitMs);
    const error = new BackendExited(info?.code ?? null, info?.signal ?? null);
    this.#fail(error, this.#shutdownAcknowledged && this.#pending.size === 0);
  }

  #onFrame(text: string): void {
    const frame = this.#check.frame(text);
    if (typeof frame === "string") return this.#fail(new ProtocolViolation(frame));
    if (frame.type === "event") return this.#onEvent(frame);
    if (frame.id === null) {
      const code = frame.error?.code ?? "none";
      return this.#fail(
        new ProtocolViolation(
          `Response with null id (error ${isErrorCode(code) ? code : "unknown"})`,
        ),
      );
    }
    const entry = this.#pending.get(frame.id);
    if (entry === undefined) {
      return this.#fail(new ProtocolViolation("Response to an unknown request id"));
    }
    if (frame.error !== undefined) {
      const code = frame.error.code;
      if (!isErrorCode(code)) return this.#fail(new ProtocolViolation("Unknown error code"));
      this.#settle(frame.id, entry);
      if (!entry.abandoned) entry.reject(new ProtocolError(code));
      return;
    }
    const parsed = this.#check.result(entry.method, frame.result);
    if (!parsed.ok) {
      return this.#fail(
        new ProtocolViolation(`Invalid ${entry.method} result: ${parsed.detail}`),
      );
    }
    this.#settle(frame.id, entry);
    if (entry.method === "initialize") {
      const result = parsed.data as InitializeResult;
      this.#check.initialized(result);
      this.#idBudget = result.limits.request_ids;
    }
    if (entry.method === "shutdown") this.#shutdownAcknowledged = true;
    if (!entry.abandoned) entry.resolve(parsed.data);
  }

  /** A checked event to the listeners, then the queue. */
  #onEvent(frame: EventFrame): void {
    const event = this.#check.event(frame);
    if (typeof event === "string") return this.#fail(new ProtocolViolation(event));
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        return this.#fail(new ClientClosed("Event listener failed", { cause: error }));
      }
    }
    if (this.#queue.push(event) === "overflow") {
      this.#fail(new ClientClosed("Event queue overflow: the consumer is too slow"));
    }
  }

  #settle(id: string, entry: Pending): void {
    this.#pending.delete(id);
    entry.cleanup();
    if (!entry.sent) return;
    for (const next of this.#window.answered(entry.priority)) this.#send(next.entry, next.bytes);
  }

  #send(entry: Pending, bytes: Uint8Array): void {
    if (this.#failure !== null) return;
    entry.sent = true;
    if (!this.#writer.write(bytes)) this.#fail(new ClientClosed("Cannot write to the backend"));
  }

  /** Fail closed once: reject pending requests, end the event queue, close stdin. */
  #fail(error: Error, clean = false): void {
    if (this.#failure !== null) return;
    this.#failure = error;
    for (const entry of this.#pending.values()) {
      entry.cleanup();
      if (!entry.abandoned) entry.reject(error);
    }
    this.#pending.clear();
    this.#window.takeHeld();
    this.#queue.end(clean ? null : error);
    this.#readAbort.abort();
    void Promise.resolve(this.#writer.close()).catch(() => {});
  }
}
