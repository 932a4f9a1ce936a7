/**
 * {@link FrameArena}: memory for the frames of large result parts, taken side by side so that a
 * `FrameWriter` writes a run of them as one view, and used again once nothing reads it.
 *
 * @module
 */

/**
 * Memory for frames that are written soon after they are made (the parts of a large result):
 * each frame is taken right after the previous one in a shared buffer, so the frames of one
 * result lie next to each other and a {@link FrameWriter} writes a run of them as one view of
 * the buffer, without copying them together. A new buffer is started when the frame does not
 * fit.
 *
 * Without `reuse`, a buffer is never used again (it is freed with the last frame that views it),
 * so no two frames share bytes. With it, the arena keeps its first {@link KEPT_BUFFERS} buffers
 * and counts the frames in each that were taken and not yet {@link FrameArena.release}d (their
 * bytes left this process). A kept buffer is used again from its start when its count is 0, after
 * `reuse.collect()` released what has left since; and all are, at once, when `reuse.idle()` says
 * that every frame taken so far left or was dropped (which also clears the count of a frame taken
 * and then dropped unwritten). This saves the page faults of fresh memory and the collections that
 * fresh memory starts, a sizeable share of a large result's cost (bench/notes.md, "Frame memory
 * used again").
 *
 * The bytes of a frame are not zeroed: the caller writes all of them.
 *
 * @example
 * ```ts
 * import { FrameArena } from "./frame_arena.ts";
 * let idle = false;
 * const arena = new FrameArena(1024, { idle: () => idle, collect: () => {} });
 * const a = arena.take(10);
 * const b = arena.take(20);
 * console.assert(a.buffer === b.buffer && b.byteOffset === 10);
 * idle = true; // a and b are no longer needed
 * const c = arena.take(5);
 * console.assert(c.buffer === a.buffer && c.byteOffset === 0);
 * ```
 */
export class FrameArena {
  #size: number;
  #reuse: FrameReuse | undefined;
  /** The kept buffers (at most {@link KEPT_BUFFERS}) and their frames not yet released. */
  #kept: ArrayBuffer[] = [];
  #unreleased: number[] = [];
  /** The current buffer and its index among the kept ones (-1: not kept, or none). */
  #buffer: ArrayBuffer | null = null;
  #index = -1;
  #offset = 0;

  /**
   * Buffers of `size` bytes (default 1 MiB; a larger frame gets one of its own), used again as
   * `reuse` allows (see the class).
   */
  constructor(size: number = 1024 * 1024, reuse?: FrameReuse) {
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new RangeError(`Arena size must be a positive integer: ${size}`);
    }
    this.#size = size;
    this.#reuse = reuse;
  }

  /**
   * `size` bytes for a frame, right after the last frame taken when they fit in its buffer, which
   * the caller fills entirely (bound to the arena: it can be passed on as a function).
   */
  take = (size: number): Uint8Array => {
    if (size > this.#size) return new Uint8Array(size);
    if (this.#offset > 0 && this.#reuse !== undefined && this.#reuse.idle()) {
      // Nothing taken so far is read any more: every kept buffer is free, start at the first.
      this.#unreleased.fill(0);
      this.#buffer = null;
    }
    if (this.#buffer === null || this.#offset + size > this.#size) this.#next();
    if (this.#index >= 0) this.#unreleased[this.#index]!++;
    const bytes = new Uint8Array(this.#buffer!, this.#offset, size);
    this.#offset += size;
    return bytes;
  };

  /**
   * A frame from {@link FrameArena.take} left this process (or will never be read): its buffer
   * may be used again once all of that buffer's frames did. Frames of other memory are ignored.
   * Call it at most once a frame.
   */
  release = (frame: Uint8Array): void => {
    const index = this.#kept.indexOf(frame.buffer as ArrayBuffer);
    if (index >= 0 && this.#unreleased[index]! > 0) this.#unreleased[index]!--;
  };

  /** Move to a free kept buffer, else a fresh one (kept while fewer than KEPT_BUFFERS are). */
  #next(): void {
    const reuse = this.#reuse;
    this.#offset = 0;
    if (reuse === undefined) {
      this.#buffer = new ArrayBuffer(this.#size);
      this.#index = -1;
      return;
    }
    reuse.collect();
    for (let i = 0; i < this.#kept.length; i++) {
      if (this.#unreleased[i] !== 0) continue;
      this.#buffer = this.#kept[i]!;
      this.#index = i;
      return;
    }
    this.#buffer = new ArrayBuffer(this.#size);
    this.#index = -1;
    if (this.#kept.length < KEPT_BUFFERS) {
      this.#index = this.#kept.push(this.#buffer) - 1;
      this.#unreleased.push(0);
    }
  }
}

/** When a {@link FrameArena} may use its memory again. */
export interface FrameReuse {
  /**
   * Whether every frame taken so far has left this process or was dropped: none is queued, held
   * back, or written and still waiting in a buffer of this process.
   */
  idle(): boolean;
  /** {@link FrameArena.release} every frame that left this process since the last call. */
  collect(): void;
}

/**
 * Buffers a {@link FrameArena} keeps for use again: the frames of four 1 MiB results in flight at
 * once (the backend's default `concurrent_calls`) fill a little more than four while the pipe
 * takes the oldest; with four kept, a fifth of the buffers at concurrency 4 were fresh memory,
 * with eight 3% (bench/notes.md, "Frame memory used again, exactly"). At most 8 MiB a
 * connection, kept for its life once result parts took them: each plain-ASCII part of 1,024
 * characters or more (`AROUND_MIN_CHARS`) is written in a frame taken here.
 */
export const KEPT_BUFFERS = 8;
