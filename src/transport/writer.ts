/**
 * Frames → bytes: one ordered, non-blocking writer over a Web
 * `WritableStream` with the output bounds of version 1 (`Bounds and failure
 * policy`): at most {@link PENDING_OUTPUT_FRAMES} pending frames, and an
 * absolute deadline of {@link OUTPUT_DEADLINE_MS} from enqueue for the oldest
 * pending frame, not reset by partial progress.
 *
 * @module
 */

import { OUTPUT_DEADLINE_MS, PENDING_OUTPUT_FRAMES } from "../protocol/limits.ts";

/**
 * Why a writer failed: `overflow` (a frame arrived with `maxPending` frames
 * pending), `deadline` (the oldest pending frame waited longer than
 * `deadlineMs` since enqueue) or `broken` (the sink rejected a write).
 */
export type WriterFailure = "overflow" | "deadline" | "broken";

/** Options of {@link FrameWriter}. */
export interface FrameWriterOptions {
  /** Pending frames allowed, including the one being written; default `PENDING_OUTPUT_FRAMES`. */
  maxPending?: number;
  /** Deadline of each frame from its enqueue; default `OUTPUT_DEADLINE_MS`. */
  deadlineMs?: number;
  /** Called at most once, on the first failure. Must not throw. */
  onFatal: (reason: WriterFailure) => void;
}

type Pending = { frame: Uint8Array; enqueuedAt: number };

/**
 * Writes frames to `sink` strictly in order, one at a time. {@link write}
 * never blocks: it enqueues or fails. Any failure is fatal for the
 * connection: `onFatal` is called once, queued frames are dropped, the sink
 * is aborted, and later writes return false.
 *
 * @example
 * ```ts
 * import { FrameWriter } from "./writer.ts";
 * const chunks: Uint8Array[] = [];
 * const sink = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) });
 * const writer = new FrameWriter(sink, { onFatal: () => {} });
 * writer.write(new TextEncoder().encode("{}\n"));
 * await writer.close();
 * console.assert(chunks.length === 1);
 * ```
 */
export class FrameWriter {
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #maxPending: number;
  #deadlineMs: number;
  #onFatal: (reason: WriterFailure) => void;
  #queue: Pending[] = [];
  #writing = false;
  #failed: WriterFailure | null = null;
  #closing: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #idle = new Set<(drained: boolean) => void>();

  /** Take the sink's writer lock; release it with {@link close}. */
  constructor(sink: WritableStream<Uint8Array>, options: FrameWriterOptions) {
    this.#maxPending = options.maxPending ?? PENDING_OUTPUT_FRAMES;
    this.#deadlineMs = options.deadlineMs ?? OUTPUT_DEADLINE_MS;
    if (!Number.isSafeInteger(this.#maxPending) || this.#maxPending < 1) {
      throw new RangeError(`Pending frame bound must be a positive integer: ${this.#maxPending}`);
    }
    if (!Number.isFinite(this.#deadlineMs) || this.#deadlineMs <= 0) {
      throw new RangeError(`Output deadline must be a positive number: ${this.#deadlineMs}`);
    }
    this.#onFatal = options.onFatal;
    this.#writer = sink.getWriter();
  }

  /** Frames enqueued and not yet fully written (including the one in flight). */
  get pending(): number {
    return this.#queue.length;
  }

  /** The failure, once one happened. */
  get failed(): WriterFailure | null {
    return this.#failed;
  }

  /**
   * Enqueue one frame. Returns false when the writer has failed or is
   * closing, and when `maxPending` frames are already pending, which is an
   * `overflow` failure.
   */
  write(frame: Uint8Array): boolean {
    if (this.#failed !== null || this.#closing !== null) return false;
    if (this.#queue.length >= this.#maxPending) {
      this.#fail("overflow");
      return false;
    }
    this.#queue.push({ frame, enqueuedAt: performance.now() });
    if (this.#queue.length === 1) this.#armDeadline();
    if (!this.#writing) void this.#pump();
    return true;
  }

  /**
   * Wait until every enqueued frame is written: true when it was, false on
   * failure or when `timeoutMs` passes first.
   */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.#failed !== null) return Promise.resolve(false);
    if (this.#queue.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (drained: boolean) => {
        clearTimeout(timer);
        this.#idle.delete(done);
        resolve(drained);
      };
      const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
      this.#idle.add(done);
    });
  }

  /**
   * Stop accepting frames, wait until the pending ones are written (bounded
   * by the per-frame deadline), then close and release the sink. After a
   * failure the sink was aborted and is only released.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (this.#failed === null && this.#queue.length > 0) {
      await new Promise<boolean>((resolve) => this.#idle.add(resolve));
    }
    if (this.#failed === null) await this.#writer.close().catch(() => {});
    this.#writer.releaseLock();
  }

  async #pump(): Promise<void> {
    this.#writing = true;
    while (this.#queue.length > 0 && this.#failed === null) {
      const head = this.#queue[0]!;
      try {
        await this.#writer.write(head.frame);
      } catch {
        this.#fail("broken");
        break;
      }
      if (this.#failed !== null) break;
      this.#queue.shift();
      this.#armDeadline();
    }
    this.#writing = false;
    if (this.#failed === null && this.#queue.length === 0) this.#settle(true);
  }

  /** Time the oldest pending frame; later frames have later deadlines. */
  #armDeadline(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const head = this.#queue[0];
    if (head === undefined || this.#failed !== null) return;
    const remaining = head.enqueuedAt + this.#deadlineMs - performance.now();
    if (remaining <= 0) {
      this.#fail("deadline");
      return;
    }
    this.#timer = setTimeout(() => this.#fail("deadline"), remaining);
  }

  #fail(reason: WriterFailure): void {
    if (this.#failed !== null) return;
    this.#failed = reason;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#writer.abort(new Error(`Output failed: ${reason}`)).catch(() => {});
    this.#settle(false);
    this.#onFatal(reason);
  }

  #settle(drained: boolean): void {
    for (const resolve of [...this.#idle]) resolve(drained);
    this.#idle.clear();
  }
}
