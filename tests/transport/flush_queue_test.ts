import assert from "node:assert/strict";
import { FlushQueue } from "../../src/transport/flush_queue.ts";

/** A queue over a sink whose held bytes the test sets, and the frames handed over. */
function queue() {
  const state = { unflushed: 0, left: [] as Uint8Array[] };
  const flush = new FlushQueue(() => state.unflushed, (frame) => void state.left.push(frame));
  return { state, flush };
}

Deno.test("FlushQueue hands frames over in order once the bytes before their end left", () => {
  const { state, flush } = queue();
  const frames = [3, 4, 5, 6].map((size) => new Uint8Array(size));
  // One write of the first two (7 bytes), one of the third (5 bytes); the sink holds all of it.
  state.unflushed = 7;
  flush.written(frames, 0, 2, 7);
  state.unflushed = 12;
  flush.written(frames, 2, 1, 5);
  assert.equal(flush.size, 3);
  assert.deepEqual(state.left, []);
  // 6 of the first write's 7 bytes left: its frames share one end, so neither is handed over.
  state.unflushed = 6;
  flush.collect();
  assert.deepEqual(state.left, []);
  state.unflushed = 5;
  flush.collect();
  assert.deepEqual(state.left, [frames[0], frames[1]]);
  assert.equal(flush.size, 1);
  // A write while an older frame waits is queued behind it: the sink holds the new 6 bytes and
  // one of the third frame's.
  state.unflushed = 7;
  flush.written(frames, 3, 1, 6);
  assert.deepEqual(state.left, [frames[0], frames[1]]);
  assert.equal(flush.size, 2);
  state.unflushed = 0;
  flush.collect();
  assert.deepEqual(state.left, frames);
  assert.equal(flush.size, 0);
});

Deno.test("FlushQueue hands a write over at once when nothing waits and the sink holds nothing", () => {
  const { state, flush } = queue();
  const frames = [new Uint8Array(2), new Uint8Array(2)];
  flush.written(frames, 0, 2, 4);
  assert.deepEqual(state.left, frames);
  assert.equal(flush.size, 0);
});

Deno.test("FlushQueue keeps order and counts across many waiting frames (its arrays compacted)", () => {
  const { state, flush } = queue();
  const frames = Array.from({ length: 3000 }, () => new Uint8Array(1));
  state.unflushed = 0;
  // Each write of one byte is held; then the bytes leave a few at a time.
  for (let i = 0; i < frames.length; i++) {
    state.unflushed++;
    flush.written(frames, i, 1, 1);
  }
  assert.equal(flush.size, 3000);
  let left = 0;
  for (const step of [1500, 700, 1, 799]) {
    left += step;
    state.unflushed -= step;
    flush.collect();
    assert.equal(state.left.length, left);
    assert.equal(flush.size, 3000 - left);
  }
  assert.ok(state.left.every((frame, n) => frame === frames[n]), "handed over in write order");
  // Emptied, it starts over: the next write is handed over at once.
  flush.written([new Uint8Array(1)], 0, 1, 1);
  assert.equal(state.left.length, 3001);
});

Deno.test("FlushQueue.clear forgets the waiting frames", () => {
  const { state, flush } = queue();
  state.unflushed = 1;
  flush.written([new Uint8Array(1)], 0, 1, 1);
  flush.clear();
  state.unflushed = 0;
  flush.collect();
  assert.deepEqual(state.left, []);
  assert.equal(flush.size, 0);
});
