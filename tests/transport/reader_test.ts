import assert from "node:assert/strict";
import type { FrameItem } from "../../src/protocol/framing.ts";
import { INPUT_FRAME_BYTES, READ_BATCH_BYTES } from "../../src/protocol/limits.ts";
import { readFrames } from "../../src/transport/reader.ts";
import { drainMicrotasks } from "../_fake_time.ts";

const te = new TextEncoder();

/** A stream of `chunks`, recording what the reader pulled and whether it cancelled. */
function source(chunks: Uint8Array[]) {
  const log = { pulled: 0, cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else {
        log.pulled++;
        controller.enqueue(chunk);
      }
    },
    cancel() {
      log.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, log };
}

async function collect(iterable: AsyncIterable<FrameItem>): Promise<FrameItem[]> {
  const items: FrameItem[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

Deno.test("readFrames() joins frames across chunks and reports a partial frame at EOF", async () => {
  const text = '{"a":1}\r\n\n{"b":2}\n{"c"';
  const chunks = [...text].map((c) => te.encode(c));
  const { stream } = source(chunks);
  assert.deepEqual(await collect(readFrames(stream)), [
    { kind: "frame", text: '{"a":1}\r', bytes: 8 },
    { kind: "error", code: "invalid_frame", fatal: false },
    { kind: "frame", text: '{"b":2}', bytes: 7 },
    { kind: "error", code: "incomplete_frame", fatal: false },
  ]);
  assert.equal(stream.locked, false);
});

Deno.test("readFrames() splits a large chunk into read batches with the same result", async () => {
  const frame = '"' + "x".repeat(3 * READ_BATCH_BYTES) + '"';
  const big = te.encode(`${frame}\n1\n`);
  const { stream } = source([big]);
  assert.deepEqual(await collect(readFrames(stream)), [
    { kind: "frame", text: frame, bytes: frame.length },
    { kind: "frame", text: "1", bytes: 1 },
  ]);
});

Deno.test("readFrames() stops after frame_too_large and cancels the stream", async () => {
  const { stream, log } = source([
    te.encode("1\n"),
    te.encode("x".repeat(INPUT_FRAME_BYTES + 1)),
    te.encode("\n2\n"),
    te.encode("3\n"),
  ]);
  assert.deepEqual(await collect(readFrames(stream)), [
    { kind: "frame", text: "1", bytes: 1 },
    { kind: "error", code: "frame_too_large", fatal: true },
  ]);
  assert.equal(log.cancelled, true);
  assert.equal(log.pulled, 2);
  assert.equal(stream.locked, false);
});

Deno.test("readFrames() honours maxFrameBytes", async () => {
  const { stream } = source([te.encode("1234\n12345\n")]);
  assert.deepEqual(await collect(readFrames(stream, { maxFrameBytes: 4 })), [
    { kind: "frame", text: "1234", bytes: 4 },
    { kind: "error", code: "frame_too_large", fatal: true },
  ]);
});

Deno.test("readFrames() cancels the stream and releases it when the consumer returns", async () => {
  const { stream, log } = source([te.encode("1\n2\n"), te.encode("3\n")]);
  for await (const item of readFrames(stream)) {
    assert.equal(item.kind, "frame");
    break;
  }
  assert.equal(log.cancelled, true);
  assert.equal(stream.locked, false);
});

Deno.test("readFrames() stops when the signal aborts between items", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(te.encode("1\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  const controller = new AbortController();
  const items: FrameItem[] = [];
  for await (const item of readFrames(stream, { signal: controller.signal })) {
    items.push(item);
    controller.abort();
  }
  assert.deepEqual(items, [{ kind: "frame", text: "1", bytes: 1 }]);
  assert.equal(cancelled, true);
  assert.equal(stream.locked, false);
});

Deno.test("readFrames() yields nothing for an already aborted signal", async () => {
  const { stream, log } = source([te.encode("1\n")]);
  const items = await collect(readFrames(stream, { signal: AbortSignal.abort() }));
  assert.deepEqual(items, []);
  assert.equal(log.cancelled, true);
});

Deno.test("readFrames() stops when the signal aborts during a pending read", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    cancel() {
      cancelled = true;
    },
  });
  const controller = new AbortController();
  const pending = collect(readFrames(stream, { signal: controller.signal }));
  await drainMicrotasks(); // readFrames is now waiting in its read (nothing will come)
  controller.abort();
  assert.deepEqual(await pending, []);
  assert.equal(cancelled, true);
  assert.equal(stream.locked, false);
});

Deno.test("readFrames() reports each chunk read through onChunk before its frames", async () => {
  const { stream } = source([te.encode('{"a":1}\n{"b":2}\n'), te.encode('{"c":3}\n')]);
  const log: string[] = [];
  for await (const item of readFrames(stream, { onChunk: () => log.push("chunk") })) {
    if (item.kind === "frame") log.push(item.text);
  }
  assert.deepEqual(log, ["chunk", '{"a":1}', '{"b":2}', "chunk", '{"c":3}']);
});

Deno.test("readFrames() calls onChunkEnd after each chunk's frames, and when the reader stops amid them", async () => {
  const { stream } = source([te.encode('{"a":1}\n{"b":2}\n'), te.encode('{"c":3}\n')]);
  const log: string[] = [];
  const options = { onChunk: () => log.push("chunk"), onChunkEnd: () => log.push("end") };
  for await (const item of readFrames(stream, options)) {
    if (item.kind === "frame") log.push(item.text);
  }
  assert.deepEqual(log, ["chunk", '{"a":1}', '{"b":2}', "end", "chunk", '{"c":3}', "end"]);

  const second = source([te.encode('{"a":1}\n{"b":2}\n')]);
  const stopped: string[] = [];
  for await (
    const item of readFrames(second.stream, {
      onChunk: () => stopped.push("chunk"),
      onChunkEnd: () => stopped.push("end"),
    })
  ) {
    if (item.kind === "frame") stopped.push(item.text);
    break;
  }
  assert.deepEqual(stopped, ["chunk", '{"a":1}', "end"]);
});
