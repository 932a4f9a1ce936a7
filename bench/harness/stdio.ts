/**
 * The measuring peers' lean standard I/O (the fake backend and the echo
 * child use the same, so the echo limit stays the limit of the fixture's
 * I/O): `Deno.stdin.read` into one reused buffer, LF splitting with no
 * decoding, and a coalescing writer over `Deno.stdout.write`. No
 * `ReadableStream`/`WritableStream`, no async generator per frame, no
 * promise per line: the per-call cost of a peer stays near what the MCP SDK
 * client's `node:child_process` data events cost.
 *
 * @module
 */

import { LineSplitter } from "./lines.ts";

/** Bytes read from stdin at a time (a 1 MiB result's 16 KiB parts arrive several per read). */
const READ_BYTES = 64 * 1024;

/** What {@link readLinesInto} reads from (`Deno.stdin` or a test double). */
export interface ByteSource {
  /** Read into `buffer`; bytes read, or `null` at EOF. */
  read(buffer: Uint8Array): Promise<number | null>;
}

/** What {@link StdoutBox} writes to (`Deno.stdout` or a test double). */
export interface ByteSink {
  /** Write some of `bytes`; the count written. */
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * Read `source` until EOF and call `onLine` for every LF-terminated line (LF
 * excluded; the view is valid only during the call). A trailing partial line
 * is dropped.
 *
 * @example
 * ```ts
 * import { readLinesInto } from "./stdio.ts";
 * const data = [new TextEncoder().encode("a\nbc\n")];
 * const source = { read: (b: Uint8Array) => Promise.resolve(data.length ? (b.set(data[0]!), data.pop()!.length) : null) };
 * const lines: number[] = [];
 * await readLinesInto(source, (line) => lines.push(line.length));
 * console.assert(lines.join() === "1,2");
 * ```
 */
export async function readLinesInto(
  source: ByteSource,
  onLine: (line: Uint8Array) => void,
): Promise<void> {
  const buffer = new Uint8Array(READ_BYTES);
  const splitter = new LineSplitter();
  for (;;) {
    const n = await source.read(buffer);
    if (n === null) return;
    for (const line of splitter.push(buffer.subarray(0, n))) onLine(line);
  }
}

/**
 * Ordered, coalescing writer: the first chunk is written at once; chunks
 * pushed while a write is in flight go out together in the next write.
 * Partial writes are completed. After a failed write everything is dropped.
 *
 * @example
 * ```ts
 * import { StdoutBox } from "./stdio.ts";
 * const seen: number[] = [];
 * const box = new StdoutBox({ write: (b) => Promise.resolve((seen.push(b.length), b.length)) });
 * box.push(new Uint8Array(2));
 * box.push(new Uint8Array(3));
 * await box.flushed();
 * console.assert(seen.join() === "2,3");
 * ```
 */
export class StdoutBox {
  #sink: ByteSink;
  #queue: Uint8Array[] = [];
  #queued = 0;
  #pumping: Promise<void> | null = null;
  #failed = false;

  /** Write to `sink` (default `Deno.stdout`). */
  constructor(sink: ByteSink = Deno.stdout) {
    this.#sink = sink;
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

  async #pump(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        let batch = this.#take();
        while (batch.length > 0) batch = batch.subarray(await this.#sink.write(batch));
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
