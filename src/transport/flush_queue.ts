/**
 * {@link FlushQueue}: the frames a `FrameWriter` wrote whose bytes may still wait in this process,
 * handed over in order once they left it.
 *
 * @module
 */

/**
 * Frames written to a sink that buffers (Node.js' stdin: a write resolves once `write()` took the
 * chunk, before the pipe did), each handed to `onLeft` once its bytes left this process. The sink
 * writes in order and `unflushed()` counts the bytes it took and still holds, so of all the bytes
 * written so far, all but the last `unflushed()` left: a frame whose end lies before that did.
 * The arrays are kept and reused, so a write makes no garbage here.
 *
 * @example
 * ```ts
 * import { FlushQueue } from "./flush_queue.ts";
 * let waiting = 0;
 * const left: Uint8Array[] = [];
 * const queue = new FlushQueue(() => waiting, (frame) => void left.push(frame));
 * const frames = [new Uint8Array(3), new Uint8Array(2)];
 * waiting = 3; // the sink took a write of the first frame and holds it
 * queue.written(frames, 0, 1, 3);
 * waiting = 5; // and one of the second
 * queue.written(frames, 1, 1, 2);
 * waiting = 2; // the first frame's 3 bytes left
 * queue.collect();
 * console.assert(left.length === 1 && left[0] === frames[0] && queue.size === 1);
 * ```
 */
export class FlushQueue {
  readonly #unflushed: () => number;
  readonly #onLeft: (frame: Uint8Array) => void;
  /** Bytes of every write so far. */
  #taken = 0;
  /** The waiting frames, from `#head` to `#tail`, and where each ends in `#taken`'s count. */
  #frames: (Uint8Array | undefined)[] = [];
  #ends: number[] = [];
  #head = 0;
  #tail = 0;

  /** A queue reading the sink's held bytes from `unflushed`, handing frames to `onLeft`. */
  constructor(unflushed: () => number, onLeft: (frame: Uint8Array) => void) {
    this.#unflushed = unflushed;
    this.#onLeft = onLeft;
  }

  /** Frames written whose bytes may still wait. */
  get size(): number {
    return this.#tail - this.#head;
  }

  /**
   * The sink took a write of `bytes` bytes holding `frames[from]` … `frames[from + count - 1]`
   * (the array is only read): hand over what left, these included when they did.
   */
  written(frames: readonly Uint8Array[], from: number, count: number, bytes: number): void {
    this.#taken += bytes;
    // Nothing older waits and the sink holds nothing: all of them left (a small write, mostly).
    if (this.#head === this.#tail && this.#unflushed() === 0) {
      for (let i = 0; i < count; i++) this.#onLeft(frames[from + i]!);
      return;
    }
    for (let i = 0; i < count; i++) {
      this.#frames[this.#tail] = frames[from + i]!;
      this.#ends[this.#tail++] = this.#taken;
    }
    this.collect();
  }

  /** Hand `onLeft` every waiting frame whose bytes have left since, oldest first. */
  collect(): void {
    let head = this.#head;
    const tail = this.#tail;
    if (head === tail) return;
    // Bytes of a write still under way may already count in `unflushed()`: `done` is then too
    // low, never too high, so a frame is never handed over early.
    const done = this.#taken - this.#unflushed();
    const frames = this.#frames;
    const ends = this.#ends;
    while (head < tail && ends[head]! <= done) {
      const frame = frames[head]!;
      frames[head++] = undefined;
      this.#onLeft(frame);
    }
    if (head === tail) {
      this.#head = this.#tail = 0;
    } else if (head >= 1024) {
      frames.copyWithin(0, head, tail).fill(undefined, tail - head, tail);
      ends.copyWithin(0, head, tail);
      this.#head = 0;
      this.#tail = tail - head;
    } else {
      this.#head = head;
    }
  }

  /** Forget every waiting frame without handing it over (the sink failed). */
  clear(): void {
    this.#frames = [];
    this.#ends = [];
    this.#head = this.#tail = 0;
  }
}
