/**
 * One ordered writer that coalesces: the first frame is written at once, and
 * frames queued while a write is in flight go out together in the next
 * write. Keeps the measuring peers' syscall count (and so their cost in the
 * numbers) low without delaying any frame.
 *
 * @module
 */

/**
 * Ordered, coalescing byte writer over a `WritableStream`.
 *
 * @example
 * ```ts
 * import { Outbox } from "./outbox.ts";
 * const chunks: Uint8Array[] = [];
 * const box = new Outbox(new WritableStream({ write: (c) => void chunks.push(c) }));
 * box.push(new Uint8Array([1]));
 * box.push(new Uint8Array([2]));
 * await box.flushed();
 * console.assert(chunks.length === 2 && chunks[1]?.[0] === 2);
 * ```
 */
export class Outbox {
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #pumping: Promise<void> | null = null;
  #failed = false;

  /** Write to `sink` (locked for the outbox's lifetime). */
  constructor(sink: WritableStream<Uint8Array>) {
    this.#writer = sink.getWriter();
  }

  /** Queue `bytes`; written in order. Ignored after a write failed. */
  push(bytes: Uint8Array): void {
    if (this.#failed) return;
    this.#queue.push(bytes);
    this.#queued += bytes.length;
    this.#pumping ??= this.#pump();
  }

  /** Resolves when everything queued so far is written (or writing failed). */
  async flushed(): Promise<void> {
    while (this.#pumping !== null) await this.#pumping;
  }

  /** Flush, then close the sink. */
  async close(): Promise<void> {
    await this.flushed();
    await this.#writer.close().catch(() => {});
  }

  async #pump(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#take();
        await this.#writer.write(batch);
      }
    } catch {
      this.#failed = true;
      this.#queue = [];
    } finally {
      this.#pumping = null;
    }
  }

  #take(): Uint8Array {
    const queue = this.#queue;
    const size = this.#queued;
    this.#queue = [];
    this.#queued = 0;
    if (queue.length === 1) return queue[0]!;
    const batch = new Uint8Array(size);
    let at = 0;
    for (const part of queue) {
      batch.set(part, at);
      at += part.length;
    }
    return batch;
  }
}
