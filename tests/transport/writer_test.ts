import assert from "node:assert/strict";
import { PENDING_OUTPUT_FRAMES } from "../../src/protocol/limits.ts";
import { FrameWriter, type WriterFailure } from "../../src/transport/writer.ts";

const te = new TextEncoder();
const frame = (n: number) => te.encode(`{"n":${n}}\n`);

function fatalLog() {
  const reasons: WriterFailure[] = [];
  return { reasons, onFatal: (reason: WriterFailure) => void reasons.push(reason) };
}

/** A sink whose writes never complete. */
function stalledSink(): WritableStream<Uint8Array> {
  return new WritableStream<Uint8Array>({ write: () => new Promise<void>(() => {}) });
}

Deno.test("FrameWriter writes frames in order, one at a time", async () => {
  const written: string[] = [];
  let active = 0;
  let maxActive = 0;
  const sink = new WritableStream<Uint8Array>({
    async write(chunk) {
      active++;
      maxActive = Math.max(maxActive, active);
      // Uneven completion times: the order must not depend on them.
      for (let i = 0; i < (written.length * 7) % 5; i++) await Promise.resolve();
      written.push(new TextDecoder().decode(chunk));
      active--;
    },
  }, { highWaterMark: 4 });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, { onFatal });
  for (let n = 0; n < PENDING_OUTPUT_FRAMES; n++) assert.equal(writer.write(frame(n)), true);
  assert.equal(await writer.drain(5_000), true);
  assert.deepEqual(written, Array.from({ length: 32 }, (_, n) => `{"n":${n}}\n`));
  assert.equal(maxActive, 1);
  assert.equal(writer.pending, 0);
  await writer.close();
  assert.deepEqual(reasons, []);
  assert.equal(sink.locked, false);
});

Deno.test("FrameWriter accepts 32 pending frames and overflows at the 33rd", async () => {
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal });
  for (let n = 1; n <= 32; n++) assert.equal(writer.write(frame(n)), true);
  assert.equal(writer.pending, 32);
  assert.equal(writer.failed, null);
  assert.equal(writer.write(frame(33)), false);
  assert.equal(writer.failed, "overflow");
  assert.deepEqual(reasons, ["overflow"]);
  assert.equal(writer.write(frame(34)), false);
  assert.deepEqual(reasons, ["overflow"]);
  assert.equal(await writer.drain(1_000), false);
  await writer.close();
});

Deno.test("FrameWriter fails with deadline when the sink never completes a write", async () => {
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal, deadlineMs: 50 });
  assert.equal(writer.write(frame(1)), true);
  assert.equal(await writer.drain(5_000), false);
  assert.equal(writer.failed, "deadline");
  assert.deepEqual(reasons, ["deadline"]);
  assert.equal(writer.write(frame(2)), false);
  assert.equal(writer.pending, 0);
  await writer.close();
  assert.deepEqual(reasons, ["deadline"]);
});

Deno.test("FrameWriter counts the deadline from enqueue, not from the start of the write", async () => {
  // Each write takes 30 ms, under the 50 ms deadline, but the third frame
  // was enqueued with the others and cannot finish within 50 ms of that.
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let written = 0;
  const sink = new WritableStream<Uint8Array>({
    write: () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          written++;
          resolve();
        }, 30);
        timers.add(timer);
      }),
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, { onFatal, deadlineMs: 50 });
  for (let n = 1; n <= 3; n++) writer.write(frame(n));
  assert.equal(await writer.drain(5_000), false);
  assert.deepEqual(reasons, ["deadline"]);
  assert.ok(written < 3);
  for (const timer of timers) clearTimeout(timer);
  await writer.close();
});

Deno.test("FrameWriter fails with broken when the sink rejects a write", async () => {
  const sink = new WritableStream<Uint8Array>({
    write: () => Promise.reject(new Error("EPIPE")),
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, { onFatal });
  assert.equal(writer.write(frame(1)), true);
  assert.equal(await writer.drain(5_000), false);
  assert.equal(writer.failed, "broken");
  assert.deepEqual(reasons, ["broken"]);
  assert.equal(writer.write(frame(2)), false);
  await writer.close();
  assert.deepEqual(reasons, ["broken"]);
  assert.equal(sink.locked, false);
});

Deno.test("FrameWriter.drain() gives up after its timeout without failing the writer", async () => {
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal, deadlineMs: 100 });
  writer.write(frame(1));
  assert.equal(await writer.drain(10), false);
  assert.equal(writer.failed, null);
  assert.equal(writer.pending, 1);
  // close() waits for the pending frame, which then misses its deadline.
  await writer.close();
  assert.deepEqual(reasons, ["deadline"]);
});

Deno.test("FrameWriter.drain() is true at once when nothing is pending", async () => {
  const writer = new FrameWriter(new WritableStream(), { onFatal: () => {} });
  assert.equal(await writer.drain(0), true);
  await writer.close();
});

Deno.test("FrameWriter.close() writes pending frames, closes the sink and refuses more", async () => {
  const written: Uint8Array[] = [];
  let closed = false;
  const sink = new WritableStream<Uint8Array>({
    write: (chunk) => void written.push(chunk),
    close: () => void (closed = true),
  });
  const writer = new FrameWriter(sink, { onFatal: () => {} });
  writer.write(frame(1));
  writer.write(frame(2));
  const closing = writer.close();
  assert.equal(writer.write(frame(3)), false);
  await closing;
  assert.equal(written.length, 2);
  assert.equal(closed, true);
  assert.equal(sink.locked, false);
  assert.equal(writer.close(), closing);
});

Deno.test("FrameWriter rejects invalid options", () => {
  const onFatal = () => {};
  assert.throws(
    () => new FrameWriter(new WritableStream(), { onFatal, maxPending: 0 }),
    RangeError,
  );
  assert.throws(
    () => new FrameWriter(new WritableStream(), { onFatal, deadlineMs: 0 }),
    RangeError,
  );
});
