import assert from "node:assert/strict";
import { PENDING_OUTPUT_FRAMES } from "../../src/protocol/limits.ts";
import { FrameArena } from "../../src/transport/frame_arena.ts";
import { FrameWriter, type WriterFailure } from "../../src/transport/writer.ts";
import { FakeTime } from "../_fake_time.ts";
import { eventually } from "../_wait.ts";

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
  const time = new FakeTime();
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal, deadlineMs: 50, clock: time });
  assert.equal(writer.write(frame(1)), true);
  const draining = writer.drain(5_000);
  await time.tick(49);
  assert.equal(writer.failed, null, "not before its deadline");
  await time.tick(1);
  assert.equal(await draining, false);
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
  const time = new FakeTime();
  let written = 0;
  const sink = new WritableStream<Uint8Array>({
    write: () =>
      new Promise<void>((resolve) => {
        time.setTimeout(() => {
          written++;
          resolve();
        }, 30);
      }),
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, { onFatal, deadlineMs: 50, clock: time });
  for (let n = 1; n <= 3; n++) writer.write(frame(n));
  const draining = writer.drain(5_000);
  await time.tickUntil(() => reasons.length > 0, 5_000);
  assert.equal(await draining, false);
  assert.deepEqual(reasons, ["deadline"]);
  assert.ok(written < 3);
  assert.equal(time.now(), 50, "failed at the third frame's deadline, 50 ms from its enqueue");
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
  const time = new FakeTime();
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal, deadlineMs: 100, clock: time });
  writer.write(frame(1));
  const draining = writer.drain(10);
  await time.tick(10);
  assert.equal(await draining, false);
  assert.equal(writer.failed, null);
  assert.equal(writer.pending, 1);
  // close() waits for the pending frame, which then misses its deadline.
  const closing = writer.close();
  await time.tick(90);
  await closing;
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

Deno.test("FrameWriter with batchBytes writes the frames queued meanwhile as one chunk, in order", async () => {
  const chunks: string[] = [];
  const inFlight = Promise.withResolvers<() => void>();
  const sink = new WritableStream<Uint8Array>({
    write(chunk) {
      chunks.push(new TextDecoder().decode(chunk));
      if (chunks.length > 1) return;
      // The first write stays in flight until the other frames are queued.
      return new Promise<void>((resolve) => inFlight.resolve(resolve));
    },
  });
  const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 1024 });
  assert.equal(writer.write(frame(0)), true);
  const release = await inFlight.promise;
  for (let n = 1; n < 10; n++) assert.equal(writer.write(frame(n)), true);
  assert.equal(writer.pending, 10);
  release();
  assert.equal(await writer.drain(5_000), true);
  assert.deepEqual(chunks, [
    `{"n":0}\n`,
    Array.from({ length: 9 }, (_, i) => `{"n":${i + 1}}\n`).join(""),
  ]);
  await writer.close();
});

Deno.test("FrameWriter with batchBytes never makes a chunk larger than the bound", async () => {
  const sizes: number[] = [];
  const bytes: number[] = [];
  const sink = new WritableStream<Uint8Array>({
    async write(chunk) {
      sizes.push(chunk.length);
      bytes.push(...chunk);
      await Promise.resolve();
    },
  });
  const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 20 });
  const big = te.encode(`{"big":"${"x".repeat(40)}"}\n`);
  const frames = [frame(1), frame(2), frame(3), big, frame(4), frame(5)];
  for (const f of frames) writer.write(f);
  assert.equal(await writer.drain(5_000), true);
  // The first frame goes at once; then at most 20 bytes, or one larger frame alone.
  assert.deepEqual(sizes, [8, 16, big.length, 16]);
  assert.deepEqual(new Uint8Array(bytes), new Uint8Array(frames.flatMap((f) => [...f])));
  await writer.close();
});

Deno.test("FrameWriter with batchBytes keeps each frame's deadline from its own enqueue", async () => {
  // The first write never completes: the oldest frame's deadline fails the writer
  // even though later frames were enqueued (they must not push the deadline back).
  const time = new FakeTime();
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), {
    onFatal,
    deadlineMs: 60,
    batchBytes: 1024,
    clock: time,
  });
  const t0 = time.now();
  writer.write(frame(1));
  time.setTimeout(() => writer.write(frame(2)), 30);
  const draining = writer.drain(5_000);
  await time.tickUntil(() => reasons.length > 0, 5_000);
  assert.equal(await draining, false);
  assert.deepEqual(reasons, ["deadline"]);
  // Failed by the first frame's deadline (60 ms), not the second's (about 90 ms).
  assert.ok(time.now() - t0 < 85, `failed after ${time.now() - t0} ms`);
  assert.equal(time.now() - t0, 60);
  await writer.close();
});

Deno.test("FrameWriter with batchBytes fails by the oldest frame still pending after a batch", async () => {
  // A batch of frames 1–2 takes 40 ms; frame 3 was enqueued at 0 ms with them
  // but after the batch started, so it waits for the next write, which stalls:
  // its deadline (60 ms from its enqueue) fails the writer.
  const time = new FakeTime();
  const { reasons, onFatal } = fatalLog();
  let writes = 0;
  const sink = new WritableStream<Uint8Array>({
    write: () =>
      writes++ === 0
        ? new Promise<void>((resolve) => void time.setTimeout(resolve, 40))
        : new Promise<void>(() => {}),
  });
  const writer = new FrameWriter(sink, {
    onFatal,
    deadlineMs: 60,
    batchBytes: 1024,
    clock: time,
  });
  const t0 = time.now();
  writer.write(frame(1));
  writer.write(frame(2));
  const draining = writer.drain(5_000);
  await time.tickUntil(() => reasons.length > 0, 5_000);
  assert.equal(await draining, false);
  assert.deepEqual(reasons, ["deadline"]);
  assert.equal(writes, 2);
  const elapsed = time.now() - t0;
  assert.ok(elapsed >= 55 && elapsed < 100, `failed after ${elapsed} ms`);
  assert.equal(elapsed, 60);
  await writer.close();
});

Deno.test("FrameWriter with batchBytes counts maxPending in frames, not chunks", async () => {
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), { onFatal, maxPending: 4, batchBytes: 1024 });
  for (let n = 1; n <= 4; n++) assert.equal(writer.write(frame(n)), true);
  assert.equal(writer.pending, 4);
  assert.equal(writer.write(frame(5)), false);
  assert.deepEqual(reasons, ["overflow"]);
  await writer.close();
});

Deno.test("FrameWriter rejects a negative batchBytes", () => {
  assert.throws(
    () => new FrameWriter(new WritableStream(), { onFatal: () => {}, batchBytes: -1 }),
    RangeError,
  );
});

/** A sink that records each chunk it gets (the chunk object itself) and completes at once. */
function recordingSink() {
  const chunks: Uint8Array[] = [];
  const sink = new WritableStream<Uint8Array>({ write: (chunk) => void chunks.push(chunk) });
  return { chunks, sink };
}

Deno.test("FrameWriter.hold() queues frames until release(), then writes them as one chunk", async () => {
  const { chunks, sink } = recordingSink();
  const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 1024 });
  writer.hold();
  writer.hold();
  for (let n = 0; n < 3; n++) assert.equal(writer.write(frame(n)), true);
  await Promise.resolve();
  assert.equal(chunks.length, 0);
  writer.release();
  assert.equal(chunks.length, 0, "the outer hold still holds");
  writer.release();
  writer.release(); // one more than held: ignored
  assert.equal(await writer.drain(5_000), true);
  assert.deepEqual(
    chunks.map((chunk) => new TextDecoder().decode(chunk)),
    ['{"n":0}\n{"n":1}\n{"n":2}\n'],
  );
  await writer.close();
});

Deno.test("FrameWriter.hold() keeps each frame's deadline running", async () => {
  const time = new FakeTime();
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(stalledSink(), {
    onFatal,
    deadlineMs: 100,
    batchBytes: 1024,
    clock: time,
  });
  writer.hold();
  writer.write(frame(0));
  await time.tick(99);
  assert.deepEqual(reasons, []);
  await time.tick(1);
  assert.deepEqual(reasons, ["deadline"]);
  await writer.close();
});

Deno.test("FrameWriter writes frames adjacent in one arena buffer as a view of it, not a copy", async () => {
  const { chunks, sink } = recordingSink();
  const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 1024 });
  const arena = new FrameArena(64);
  const made = [0, 1, 2].map((n) => {
    const bytes = arena.take(frame(n).length);
    bytes.set(frame(n));
    return bytes;
  });
  const loose = frame(9);
  writer.hold();
  for (const bytes of [...made, loose]) writer.write(bytes);
  writer.release();
  assert.equal(await writer.drain(5_000), true);
  // The adjacent run goes out as one view of the arena's buffer; the loose frame after it alone.
  assert.equal(chunks.length, 2);
  assert.equal(chunks[0]!.buffer, made[0]!.buffer);
  assert.equal(chunks[0]!.byteOffset, made[0]!.byteOffset);
  assert.equal(new TextDecoder().decode(chunks[0]!), '{"n":0}\n{"n":1}\n{"n":2}\n');
  assert.equal(chunks[1], loose);
  await writer.close();
});

Deno.test("FrameWriter copies a batch that starts with frames not adjacent, as before", async () => {
  const { chunks, sink } = recordingSink();
  const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 1024 });
  const arena = new FrameArena(64);
  const inArena = arena.take(frame(1).length);
  inArena.set(frame(1));
  writer.hold();
  writer.write(frame(0));
  writer.write(inArena);
  writer.write(frame(2));
  writer.release();
  assert.equal(await writer.drain(5_000), true);
  assert.equal(chunks.length, 1);
  assert.notEqual(chunks[0]!.buffer, inArena.buffer);
  assert.equal(new TextDecoder().decode(chunks[0]!), '{"n":0}\n{"n":1}\n{"n":2}\n');
  await writer.close();
});

Deno.test("FrameWriter.together() writes the frames of its function together; outside it, the first alone", async () => {
  for (const together of [true, false]) {
    const { chunks, sink } = recordingSink();
    const writer = new FrameWriter(sink, { onFatal: () => {}, batchBytes: 1024 });
    const writeThree = () => [0, 1, 2].map((n) => writer.write(frame(n)));
    assert.deepEqual(together ? writer.together(writeThree) : writeThree(), [true, true, true]);
    assert.equal(await writer.drain(5_000), true);
    const texts = chunks.map((chunk) => new TextDecoder().decode(chunk));
    assert.deepEqual(
      texts,
      together ? ['{"n":0}\n{"n":1}\n{"n":2}\n'] : ['{"n":0}\n', '{"n":1}\n{"n":2}\n'],
      `together: ${together}`,
    );
    // A function that throws still releases the hold.
    assert.throws(() =>
      writer.together(() => {
        throw new Error("boom");
      }), /boom/);
    writer.write(frame(3));
    assert.equal(await writer.drain(5_000), true);
    await writer.close();
  }
});

Deno.test("FrameWriter's onWritten gets each frame after the write holding it completed, never after a failure", async () => {
  const written: Uint8Array[] = [];
  let finish: () => void = () => {};
  let writes = 0;
  const sink = new WritableStream<Uint8Array>({
    write: () => {
      writes++;
      // The second write fails: its frames are never reported.
      return writes === 2
        ? Promise.reject(new Error("pipe closed"))
        : new Promise<void>((resolve) => finish = resolve);
    },
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, {
    onFatal,
    batchBytes: 1024,
    onWritten: (frame) => void written.push(frame),
  });
  const frames = [0, 1, 2].map(frame);
  writer.together(() => {
    writer.write(frames[0]!);
    writer.write(frames[1]!);
  });
  await Promise.resolve();
  writer.write(frames[2]!);
  assert.deepEqual(written, []); // the first write is still under way
  finish();
  assert.ok(await eventually(() => reasons.length === 1, 30_000, 0));
  assert.deepEqual(written.map((bytes) => bytes === frames[0] || bytes === frames[1]), [
    true,
    true,
  ]);
  assert.equal(written.length, 2);
  assert.deepEqual(reasons, ["broken"]);
});

Deno.test("FrameWriter with unflushed hands a frame to onWritten only once its bytes left the process, in order", async () => {
  const written: Uint8Array[] = [];
  // A sink like Node.js' stdin: a write counts in `unflushed` from when the sink takes it until
  // the test lets the "pipe" take its bytes, oldest first.
  let unflushed = 0;
  const sink = new WritableStream<Uint8Array>({
    write: (chunk) => void (unflushed += chunk.length),
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, {
    onFatal,
    batchBytes: 1024,
    onWritten: (frame) => void written.push(frame),
    unflushed: () => unflushed,
  });
  const frames = [0, 1, 2, 3].map(frame);
  writer.together(() => {
    writer.write(frames[0]!);
    writer.write(frames[1]!);
  });
  assert.ok(await eventually(() => writer.pending === 0, 30_000, 0));
  writer.write(frames[2]!);
  assert.ok(await eventually(() => writer.pending === 0, 30_000, 0));
  // Both writes were taken, no byte left: nothing is handed over, however often it is asked.
  writer.collect();
  assert.deepEqual(written, []);
  assert.equal(writer.flushing, 3);
  const size = frames[0]!.length;
  unflushed -= 2 * size - 1; // one byte of the first write still waits
  writer.collect();
  assert.deepEqual(written, []);
  unflushed -= 1; // the first write (frames 0 and 1) left
  writer.collect();
  assert.deepEqual(written, [frames[0], frames[1]]);
  assert.equal(writer.flushing, 1);
  // A later write's completion hands over what left meanwhile, without a collect() call.
  unflushed -= size;
  writer.write(frames[3]!);
  assert.ok(await eventually(() => written.length === 3, 30_000, 0));
  assert.deepEqual(written, [frames[0], frames[1], frames[2]]);
  assert.equal(writer.flushing, 1);
  unflushed -= size;
  writer.collect();
  assert.deepEqual(written, frames);
  assert.equal(writer.flushing, 0);
  await writer.close();
  assert.deepEqual(reasons, []);
});

Deno.test("FrameWriter with unflushed drops frames still waiting when it fails, and never hands them over", async () => {
  const written: Uint8Array[] = [];
  let writes = 0;
  let unflushed = 0;
  const sink = new WritableStream<Uint8Array>({
    write: (chunk) => {
      if (++writes === 2) return Promise.reject(new Error("pipe closed"));
      unflushed += chunk.length;
      return Promise.resolve();
    },
  });
  const { reasons, onFatal } = fatalLog();
  const writer = new FrameWriter(sink, {
    onFatal,
    onWritten: (frame) => void written.push(frame),
    unflushed: () => unflushed,
  });
  writer.write(frame(0));
  assert.ok(await eventually(() => writer.flushing === 1, 30_000, 0));
  writer.write(frame(1));
  assert.ok(await eventually(() => reasons.length === 1, 30_000, 0));
  assert.equal(writer.flushing, 0);
  unflushed = 0;
  writer.collect();
  assert.deepEqual(written, []);
  assert.deepEqual(reasons, ["broken"]);
});
