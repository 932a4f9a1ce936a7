/**
 * Bytes → frames over a Web `ReadableStream`.
 *
 * @module
 */

import { FrameDecoder, type FrameItem } from "../protocol/framing.ts";
import { READ_BATCH_BYTES } from "../protocol/limits.ts";

/** Options of {@link readFrames}. */
export interface ReadFramesOptions {
  /** Maximum frame bytes excluding LF; default `INPUT_FRAME_BYTES`. */
  maxFrameBytes?: number;
  /** Stops reading (the generator returns without `end()` items) when aborted. */
  signal?: AbortSignal;
  /** Called for every chunk read, before its frames (e.g. a liveness watch); must not throw. */
  onChunk?: () => void;
  /**
   * Called once after each chunk's frames were taken, or when the reading stops amid them,
   * after every `onChunk`; must not throw.
   */
  onChunkEnd?: () => void;
}

/**
 * Read frames from `stream`: chunks are fed to a {@link FrameDecoder} in
 * batches of at most `READ_BATCH_BYTES`, and the resulting items are yielded
 * in order. At EOF the decoder's `end()` items follow (`incomplete_frame` for
 * a partial frame). The generator stops after a fatal item
 * (`frame_too_large`) or when `signal` aborts, and always releases the
 * stream: an unfinished stream is cancelled, then the reader lock released.
 *
 * @example
 * ```ts
 * import { readFrames } from "./reader.ts";
 * const stream = new Blob(['{"a":1}\n']).stream();
 * for await (const item of readFrames(stream)) console.assert(item.kind === "frame");
 * ```
 */
export async function* readFrames(
  stream: ReadableStream<Uint8Array>,
  options: ReadFramesOptions = {},
): AsyncGenerator<FrameItem> {
  const { signal, onChunk, onChunkEnd } = options;
  const decoder = new FrameDecoder(
    options.maxFrameBytes === undefined ? {} : { maxFrameBytes: options.maxFrameBytes },
  );
  const reader = stream.getReader();
  let done = false;
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    while (!signal?.aborted) {
      const read = await reader.read();
      if (signal?.aborted) return;
      if (read.done) {
        done = true;
        yield* decoder.end();
        return;
      }
      onChunk?.();
      const chunk = read.value;
      try {
        for (let at = 0; at < chunk.length; at += READ_BATCH_BYTES) {
          for (const item of decoder.push(chunk.subarray(at, at + READ_BATCH_BYTES))) {
            yield item;
            if (item.kind === "error" && item.fatal) return;
          }
        }
      } finally {
        onChunkEnd?.();
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
