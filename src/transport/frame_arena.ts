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
 * Without `reusable`, a buffer is never used again (it is freed with the last frame that views
 * it), so no two frames share bytes. With it, the arena asks `reusable()` before each frame; true
 * must mean that no frame taken so far is still read by anyone (none queued, held back, or still
 * in a buffer on its way to the OS). The arena then starts again at the first of the buffers it
 * keeps ({@link KEPT_BUFFERS}), which saves the page faults of fresh memory, a sizeable share of a
 * large result's cost (bench/notes.md, "Frame memory used again").
 *
 * The bytes of a frame are not zeroed: the caller writes all of them.
 *
 * @example
 * ```ts
 * import { FrameArena } from "./frame_arena.ts";
 * let written = false;
 * const arena = new FrameArena(1024, () => written);
 * const a = arena.take(10);
 * const b = arena.take(20);
 * console.assert(a.buffer === b.buffer && b.byteOffset === 10);
 * written = true; // a and b are no longer needed
 * const c = arena.take(5);
 * console.assert(c.buffer === a.buffer && c.byteOffset === 0);
 * ```
 */
export class FrameArena {
  #size: number;
  #reusable: (() => boolean) | undefined;
  /** The buffers used since the arena last started again, at most {@link KEPT_BUFFERS}. */
  #kept: ArrayBuffer[] = [];
  /** Index of the current buffer among those used since the arena started again. */
  #index = -1;
  #buffer: ArrayBuffer | null = null;
  #offset = 0;

  /**
   * Buffers of `size` bytes (default 1 MiB; a larger frame gets one of its own), used again when
   * `reusable()` says so (see the class).
   */
  constructor(size: number = 1024 * 1024, reusable?: () => boolean) {
    if (!Number.isSafeInteger(size) || size < 1) {
      throw new RangeError(`Arena size must be a positive integer: ${size}`);
    }
    this.#size = size;
    this.#reusable = reusable;
  }

  /**
   * `size` bytes for a frame, right after the last frame taken when they fit in its buffer, which
   * the caller fills entirely (bound to the arena: it can be passed on as a function).
   */
  take = (size: number): Uint8Array => {
    if (size > this.#size) return new Uint8Array(size);
    if (this.#offset > 0 && this.#reusable?.() === true) {
      this.#index = -1;
      this.#buffer = null;
    }
    if (this.#buffer === null || this.#offset + size > this.#size) this.#next();
    const bytes = new Uint8Array(this.#buffer!, this.#offset, size);
    this.#offset += size;
    return bytes;
  };

  /** Move to the next kept buffer, or a fresh one (kept while fewer than KEPT_BUFFERS are). */
  #next(): void {
    this.#index++;
    let buffer = this.#kept[this.#index];
    if (buffer === undefined) {
      buffer = new ArrayBuffer(this.#size);
      if (
        this.#reusable !== undefined && this.#index === this.#kept.length &&
        this.#kept.length < KEPT_BUFFERS
      ) {
        this.#kept.push(buffer);
      }
    }
    this.#buffer = buffer;
    this.#offset = 0;
  }
}

/**
 * Buffers a {@link FrameArena} keeps for use again: the frames of the results written between two
 * moments when nothing is pending rarely take more (4 MiB: four 1 MiB results at once).
 */
export const KEPT_BUFFERS = 4;
