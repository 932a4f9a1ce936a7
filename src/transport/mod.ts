/**
 * Bytes ↔ frames over Web Streams: `reader.ts` reads bounded line frames from a stream,
 * `writer.ts` is the one ordered, bounded, non-blocking frame writer with a per-frame deadline,
 * `frame_arena.ts` the memory of large result parts' frames (side by side, used again once their
 * bytes left the process), `flush_queue.ts` the written frames whose bytes may still wait in this
 * process.
 * Spawning and supervising processes is the runtime adapter's (`src/runtime/`).
 *
 * @module
 */

export { readFrames, type ReadFramesOptions } from "./reader.ts";
export { FrameWriter, type FrameWriterOptions } from "./writer.ts";
