/**
 * Frames → bytes: one ordered, non-blocking writer over a Web
 * `WritableStream` with the output bounds of version 1 (`Bounds and failure
 * policy`): at most {@link PENDING_OUTPUT_FRAMES} pending frames, and an
 * absolute deadline of {@link OUTPUT_DEADLINE_MS} from enqueue for the oldest
 * pending frame, not reset by partial progress.
 *
 * @module
 */

import { type Clock, REAL_CLOCK, type TimerId } from "../async/clock.ts";
import { OUTPUT_DEADLINE_MS, PENDING_OUTPUT_FRAMES } from "../protocol/limits.ts";
import { FlushQueue } from "./flush_queue.ts";

/**
 * Why a writer failed: `overflow` (a frame arrived with `maxPending` frames
 * pending), `deadline` (the oldest pending frame waited longer than
 * `deadlineMs` since enqueue) or `broken` (the sink rejected a write).
 */
export type WriterFailure = "overflow" | "deadline" | "broken";

/** Options of {@link FrameWriter}. */
export interface FrameWriterOptions {
  /** Pending frames allowed, including the ones being written; default `PENDING_OUTPUT_FRAMES`. */
  maxPending?: number;
  /** Deadline of each frame from its enqueue; default `OUTPUT_DEADLINE_MS`. */
  deadlineMs?: number;
  /**
   * Coalesce: when the sink is free, write every queued frame (in order) as
   * one chunk of at most this many bytes; a larger frame goes alone. Default
   * 0: one frame per write. {@link COALESCE_BYTES} is a good value for pipes.
   */
  batchBytes?: number;
  /** Called at most once, on the first failure. Must not throw. */
  onFatal: (reason: WriterFailure) => void;
  /**
   * Called with each frame once the sink took the write holding it (not after a failure); with
   * `unflushed`, only once the frame's bytes also left this process ({@link FrameWriter.collect}).
   */
  onWritten?: (frame: Uint8Array) => void;
  /**
   * Bytes the sink took that have not yet reached the OS, waiting in a buffer of this process
   * (Node.js' `writableLength`; `ChildHandle.stdinUnflushed`). The sink must write in order and
   * count a write here before it resolves. Default: none.
   */
  unflushed?: () => number;
  /** The clock the deadlines and `drain` timeouts run on; default {@link REAL_CLOCK}. */
  clock?: Clock;
}

/** A batch size for {@link FrameWriterOptions.batchBytes}: 256 KiB, a few pipe buffers. */
export const COALESCE_BYTES = 256 * 1024;

/**
 * Writes frames to `sink` strictly in order, one write at a time (with
 * `batchBytes`, the frames queued when the sink becomes free go out together
 * in one write). {@link write} never blocks: it enqueues or fails. Any
 * failure is fatal for the connection: `onFatal` is called once, queued
 * frames are dropped, the sink is aborted, and later writes return false.
 *
 * One timer watches the deadlines: it is armed for the oldest pending
 * frame's deadline and, when it fires, fails the writer if the oldest frame
 * still pending has reached its own deadline, else re-arms for it. Progress
 * never resets it, and while frames keep flowing it is not touched per frame.
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
  #batchBytes: number;
  #onFatal: (reason: WriterFailure) => void;
  #onWritten: ((frame: Uint8Array) => void) | undefined;
  /** Written frames whose bytes may still wait in this process (with `unflushed`). */
  #flush: FlushQueue | undefined;
  #clock: Clock;
  /** Pending frames and their enqueue times (`#clock.now()`), from index `#head`. */
  #frames: Uint8Array[] = [];
  #times: number[] = [];
  #head = 0;
  #writing = false;
  /** {@link hold} calls not yet released: while above 0, frames queue without a write starting. */
  #holds = 0;
  #failed: WriterFailure | null = null;
  #closing: Promise<void> | null = null;
  #timer: TimerId | undefined;
  #idle = new Set<(drained: boolean) => void>();
  #onTimer = () => {
    this.#timer = undefined;
    this.#watch();
  };

  /** Take the sink's writer lock; release it with {@link close}. */
  constructor(sink: WritableStream<Uint8Array>, options: FrameWriterOptions) {
    this.#maxPending = options.maxPending ?? PENDING_OUTPUT_FRAMES;
    this.#deadlineMs = options.deadlineMs ?? OUTPUT_DEADLINE_MS;
    this.#batchBytes = options.batchBytes ?? 0;
    if (!Number.isSafeInteger(this.#maxPending) || this.#maxPending < 1) {
      throw new RangeError(`Pending frame bound must be a positive integer: ${this.#maxPending}`);
    }
    if (!Number.isFinite(this.#deadlineMs) || this.#deadlineMs <= 0) {
      throw new RangeError(`Output deadline must be a positive number: ${this.#deadlineMs}`);
    }
    if (!Number.isSafeInteger(this.#batchBytes) || this.#batchBytes < 0) {
      throw new RangeError(`Batch size must be a non-negative integer: ${this.#batchBytes}`);
    }
    this.#onFatal = options.onFatal;
    this.#onWritten = options.onWritten;
    // Without `onWritten` nobody waits for the bytes: nothing to track.
    if (options.onWritten !== undefined && options.unflushed !== undefined) {
      this.#flush = new FlushQueue(options.unflushed, options.onWritten);
    }
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#writer = sink.getWriter();
  }

  /** Frames enqueued and not yet fully written (including the ones in flight). */
  get pending(): number {
    return this.#frames.length - this.#head;
  }

  /** Written frames whose bytes may still wait in this process (with `unflushed`). */
  get flushing(): number {
    return this.#flush?.size ?? 0;
  }

  /**
   * Hand `onWritten` every written frame whose bytes have left this process since (with
   * `unflushed`; see {@link FlushQueue.collect}). The writer calls it after each write; call it
   * before asking whether memory of earlier frames is free.
   */
  collect(): void {
    this.#flush?.collect();
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
    if (this.#frames.length - this.#head >= this.#maxPending) {
      this.#fail("overflow");
      return false;
    }
    this.#frames.push(frame);
    this.#times.push(this.#clock.now());
    // A timer left from earlier frames fires no later than this frame's deadline.
    if (this.#timer === undefined) this.#watch();
    if (!this.#writing && this.#holds === 0) void this.#pump();
    return true;
  }

  /**
   * Queue frames without starting a write until the matching {@link release}: frames sent
   * while a batch of input is handled then go out together (with `batchBytes`), not the first
   * alone. Deadlines run as usual; the caller must release before it waits on anything.
   */
  hold(): void {
    this.#holds++;
  }

  /** Run `write`, holding: the frames it writes go out together (in one write where they fit). */
  together<T>(write: () => T): T {
    this.hold();
    try {
      return write();
    } finally {
      this.release();
    }
  }

  /** End one {@link hold}; the last one starts writing what was queued meanwhile. */
  release(): void {
    if (this.#holds === 0) return;
    this.#holds--;
    if (this.#holds === 0 && !this.#writing && this.pending > 0 && this.#failed === null) {
      void this.#pump();
    }
  }

  /**
   * Wait until every enqueued frame is written: true when it was, false on
   * failure or when `timeoutMs` passes first.
   */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.#failed !== null) return Promise.resolve(false);
    if (this.pending === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (drained: boolean) => {
        this.#clock.clearTimeout(timer);
        this.#idle.delete(done);
        resolve(drained);
      };
      const timer = this.#clock.setTimeout(() => done(false), Math.max(0, timeoutMs));
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
    if (this.#failed === null && this.pending > 0) {
      await new Promise<boolean>((resolve) => this.#idle.add(resolve));
    }
    this.#clearTimer();
    if (this.#failed === null) await this.#writer.close().catch(() => {});
    this.#writer.releaseLock();
  }

  async #pump(): Promise<void> {
    this.#writing = true;
    while (this.#head < this.#frames.length && this.#failed === null) {
      const count = this.#batchCount();
      const chunk = count === 1 ? this.#frames[this.#head]! : this.#concat(count);
      try {
        await this.#writer.write(chunk);
      } catch {
        this.#fail("broken");
        break;
      }
      if (this.#failed !== null) break;
      if (this.#flush !== undefined) {
        this.#flush.written(this.#frames, this.#head, count, chunk.length);
      } else if (this.#onWritten !== undefined) {
        for (let i = 0; i < count; i++) this.#onWritten(this.#frames[this.#head + i]!);
      }
      this.#advance(count);
    }
    this.#writing = false;
    if (this.#failed === null && this.pending === 0) this.#settle(true);
  }

  /**
   * Frames of the next write: all queued ones up to `batchBytes` (at least one), except that a
   * run of frames adjacent in one buffer (a `FrameArena`'s, `frame_arena.ts`) ends the batch where the run
   * does, so that it goes out as a view of that buffer instead of a copy.
   */
  #batchCount(): number {
    const frames = this.#frames;
    const end = frames.length;
    let count = 1;
    let bytes = frames[this.#head]!.length;
    let adjacent = true;
    while (this.#head + count < end) {
      const next = frames[this.#head + count]!;
      bytes += next.length;
      if (bytes > this.#batchBytes) break;
      if (adjacent && !follows(frames[this.#head + count - 1]!, next)) {
        if (count > 1) break;
        adjacent = false;
      }
      count++;
    }
    return count;
  }

  #concat(count: number): Uint8Array {
    const first = this.#frames[this.#head]!;
    const last = this.#frames[this.#head + count - 1]!;
    if (follows(first, this.#frames[this.#head + 1]!) && last.buffer === first.buffer) {
      // #batchCount took an adjacent run: one view over it.
      const size = last.byteOffset + last.length - first.byteOffset;
      return new Uint8Array(first.buffer, first.byteOffset, size);
    }
    let size = 0;
    for (let i = 0; i < count; i++) size += this.#frames[this.#head + i]!.length;
    const chunk = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const frame = this.#frames[this.#head + i]!;
      chunk.set(frame, at);
      at += frame.length;
    }
    return chunk;
  }

  /** Drop `count` written frames from the head. */
  #advance(count: number): void {
    this.#head += count;
    if (this.#head === this.#frames.length) {
      this.#frames = [];
      this.#times = [];
      this.#head = 0;
    } else if (this.#head >= 1024) {
      this.#frames = this.#frames.slice(this.#head);
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
  }

  /**
   * Check the oldest pending frame's deadline: fail when it passed, else arm
   * the timer for it. Nothing pending: the timer stays off.
   */
  #watch(): void {
    if (this.#failed !== null || this.#head === this.#frames.length) return;
    const remaining = this.#times[this.#head]! + this.#deadlineMs - this.#clock.now();
    if (remaining <= 0) {
      this.#fail("deadline");
      return;
    }
    this.#timer = this.#clock.setTimeout(this.#onTimer, remaining);
  }

  #clearTimer(): void {
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #fail(reason: WriterFailure): void {
    if (this.#failed !== null) return;
    this.#failed = reason;
    this.#clearTimer();
    this.#frames = [];
    this.#times = [];
    this.#head = 0;
    this.#flush?.clear();
    this.#writer.abort(new Error(`Output failed: ${reason}`)).catch(() => {});
    this.#settle(false);
    this.#onFatal(reason);
  }

  #settle(drained: boolean): void {
    // Runs whenever the queue empties: with no one waiting it must allocate nothing (a
    // `Set.clear()` allocates a new table, which V8 links from the old one, so clearing a
    // long-lived empty Set per write promoted garbage into the old generation: issue 18).
    if (this.#idle.size === 0) return;
    const waiting = [...this.#idle];
    this.#idle.clear();
    for (const resolve of waiting) resolve(drained);
  }
}

/** Whether `next` starts in the same buffer right where `frame` ends. */
function follows(frame: Uint8Array, next: Uint8Array): boolean {
  return next.buffer === frame.buffer && next.byteOffset === frame.byteOffset + frame.length;
}
