/**
 * The backend's single ordered output: instance identity, sequence numbers and the
 * bounded non-blocking writer with its fatal policy (overflow, deadline, broken pipe).
 *
 * Sequence numbers are assigned at enqueue, in enqueue order, from 1. A frame that could
 * not be encoded consumes no sequence number.
 *
 * @module
 */

import { eventFrame, responseFrame } from "../../protocol/envelope.ts";
import { encodeFrame } from "../../protocol/framing.ts";
import type { JsonObject, JsonValue } from "../../protocol/json.ts";
import type { ErrorCode } from "../../protocol/errors.ts";
import { OUTPUT_DEADLINE_MS, PENDING_OUTPUT_FRAMES } from "../../protocol/limits.ts";
import { FrameWriter } from "../../transport/writer.ts";
import { checkEventData, checkResult } from "./self_check.ts";

type WirePayload = { result: JsonValue } | { error: { code: ErrorCode } };

/** Why the transport failed; every reason ends the child with exit 1. */
export type FatalReason = "overflow" | "deadline" | "broken";

/** A response payload: exactly one of `result` or `error`. */
export type ResponsePayload = { result: unknown } | { error: { code: ErrorCode } };

/** An error response payload: the code and nothing else. */
export function errorPayload(code: ErrorCode): ResponsePayload {
  return { error: { code } };
}

/** Options of {@link Outbox}. */
export interface OutboxOptions {
  /** Called once on a fatal transport failure. */
  onFatal: (reason: FatalReason) => void;
  /** Validate outgoing event data against the schemas (tests, debugging). */
  selfCheck?: boolean;
  /**
   * Called with a self-check violation's message; the frame is then not written. Default: the
   * message on stderr and exit 70 at once.
   */
  onSelfCheckFailure?: (message: string) => void;
}

/** Pending frames that worker events leave free for responses. */
const RESPONSE_RESERVE = 8;
/** Pending frames above which best-effort deltas are dropped. */
const DELTA_CEILING = 16;
/** Polling interval while a worker waits for output room. */
const ROOM_POLL_MS = 5;

/** Ordered output of one child: every frame goes through here. */
export class Outbox {
  /** Fresh lowercase UUID of this child. */
  readonly instanceId: string = crypto.randomUUID();
  #seq = 0;
  #writer: FrameWriter;
  #selfCheck: boolean;
  #onSelfCheckFailure: (message: string) => void;

  /** Create the outbox over `sink` (the child's stdout). */
  constructor(sink: WritableStream<Uint8Array>, options: OutboxOptions) {
    this.#selfCheck = options.selfCheck ?? false;
    this.#onSelfCheckFailure = options.onSelfCheckFailure ?? exitOnSelfCheckFailure;
    this.#writer = new FrameWriter(sink, {
      maxPending: PENDING_OUTPUT_FRAMES,
      deadlineMs: OUTPUT_DEADLINE_MS,
      onFatal: options.onFatal,
    });
  }

  /** Frames enqueued and not yet fully written. */
  get pending(): number {
    return this.#writer.pending;
  }

  /** Whether the writer has failed. */
  get failed(): boolean {
    return this.#writer.failed !== null;
  }

  /** Enqueue a response to request `id` (`null` when identity is unusable). */
  respond(id: string | null, payload: ResponsePayload): boolean {
    const seq = this.#seq + 1;
    return this.#enqueue(seq, responseFrame(this.instanceId, seq, id, payload as WirePayload));
  }

  /** Enqueue an error response carrying only `code`. */
  fail(id: string | null, code: ErrorCode): boolean {
    return this.respond(id, { error: { code } });
  }

  /** Enqueue an event frame. */
  emit(event: string, data: Record<string, unknown>): boolean {
    if (!this.#passes(() => checkEventData(event, data))) return false;
    const seq = this.#seq + 1;
    return this.#enqueue(seq, eventFrame(this.instanceId, seq, event, data as JsonObject));
  }

  /** Whether a best-effort delta may be enqueued now without crowding critical frames. */
  hasDeltaRoom(): boolean {
    return this.#writer.failed === null && this.#writer.pending < DELTA_CEILING;
  }

  /**
   * Wait until pending frames leave the response reserve free (fewer than 24 pending), at
   * most `timeoutMs`. Resolves false on timeout, abort or writer failure.
   */
  async waitForRoom(timeoutMs: number, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    const { signal } = options;
    const limit = PENDING_OUTPUT_FRAMES - RESPONSE_RESERVE;
    const until = Date.now() + timeoutMs;
    while (this.#writer.pending >= limit) {
      if (this.#writer.failed !== null || signal?.aborted || Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, ROOM_POLL_MS));
    }
    return this.#writer.failed === null;
  }

  /** Wait for every enqueued frame to be written, at most `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean> {
    return this.#writer.drain(timeoutMs);
  }

  /**
   * Check a result in self-check mode (a violation ends the child with exit 70). False when
   * it broke the schema: the response must not be written.
   */
  checkResult(method: string, result: unknown): boolean {
    return this.#passes(() => checkResult(method, result));
  }

  /** Whether `check` passes (always, without self-check); a violation is reported. */
  #passes(check: () => void): boolean {
    if (!this.#selfCheck) return true;
    try {
      check();
      return true;
    } catch (error) {
      this.#onSelfCheckFailure(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  #enqueue(seq: number, frame: unknown): boolean {
    const bytes = frame instanceof Uint8Array ? frame : encodeFrame(frame);
    this.#seq = seq;
    return this.#writer.write(bytes);
  }
}

/** The child's reaction to a self-check violation: the message on stderr, then exit 70. */
function exitOnSelfCheckFailure(message: string): void {
  console.error(message);
  Deno.exit(70);
}
