import assert from "node:assert/strict";
import { FrameArena, KEPT_BUFFERS } from "../../src/transport/frame_arena.ts";

Deno.test("FrameArena takes frames side by side, starts a new buffer when one is full, never reuses bytes", () => {
  const arena = new FrameArena(100);
  const a = arena.take(40);
  const b = arena.take(60);
  assert.equal(b.buffer, a.buffer);
  assert.equal(b.byteOffset, a.byteOffset + a.length);
  const c = arena.take(1);
  assert.notEqual(c.buffer, a.buffer);
  assert.equal(c.byteOffset, 0);
  const big = arena.take(101);
  assert.equal(big.length, 101);
  assert.notEqual(big.buffer, c.buffer);
  assert.equal(
    arena.take(1).byteOffset,
    1,
    "a frame too large for a buffer leaves the current one",
  );
  assert.ok([a, b, c, big].every((bytes) => bytes.every((byte) => byte === 0)));
  assert.throws(() => new FrameArena(0), RangeError);
});

/** Reuse conditions a test sets. */
function conditions() {
  const state = { idle: false, drained: false, asked: 0 };
  const reuse = {
    idle: () => (state.asked++, state.idle),
    drained: () => (state.asked++, state.drained),
  };
  return { state, reuse };
}

Deno.test("FrameArena starts again at its first kept buffer when idle and drained", () => {
  const { state, reuse } = conditions();
  const arena = new FrameArena(100, reuse);
  const a = arena.take(60);
  const b = arena.take(60); // does not fit: a second buffer (a's frame is not released)
  assert.notEqual(b.buffer, a.buffer);
  state.idle = true; // nothing queued, but bytes still on their way
  assert.equal(arena.take(10).buffer, b.buffer);
  state.drained = true;
  const c = arena.take(30);
  assert.equal(c.buffer, a.buffer);
  assert.equal(c.byteOffset, 0);
  state.idle = false;
  const d = arena.take(80); // does not fit after c: the second kept buffer, from its start
  assert.equal(d.buffer, b.buffer);
  assert.equal(d.byteOffset, 0);
  assert.ok(state.asked >= 3);
  // The memory is not zeroed for the next frame: its writer fills it.
  c.fill(7);
  state.idle = true;
  assert.equal(arena.take(1)[0], 7);
});

Deno.test("FrameArena uses a kept buffer again while others are in use once all its frames are released and drained", () => {
  const { state, reuse } = conditions();
  const arena = new FrameArena(100, reuse);
  const a1 = arena.take(50);
  const a2 = arena.take(50);
  const b = arena.take(100); // a second buffer; a's stays in use
  assert.notEqual(b.buffer, a1.buffer);
  arena.release(a1);
  state.drained = true;
  // One of a's frames is still unreleased: a fresh buffer, not a's.
  const c = arena.take(100);
  assert.ok(c.buffer !== a1.buffer && c.buffer !== b.buffer);
  arena.release(a2);
  state.drained = false;
  // All of a's frames released, but bytes still on their way: fresh again.
  const d = arena.take(100);
  assert.ok(![a1.buffer, b.buffer, c.buffer].includes(d.buffer));
  state.drained = true;
  const e = arena.take(100);
  assert.equal(e.buffer, a1.buffer);
  assert.equal(e.byteOffset, 0);
  // Releasing a frame of memory the arena does not keep changes nothing.
  arena.release(new Uint8Array(10));
  arena.release(arena.take(1_000)); // too large for a buffer: its own memory
});

Deno.test("FrameArena keeps at most KEPT_BUFFERS buffers for use again", () => {
  const { state, reuse } = conditions();
  const arena = new FrameArena(10, reuse);
  const first = Array.from({ length: KEPT_BUFFERS + 2 }, () => arena.take(10).buffer);
  assert.equal(new Set(first).size, KEPT_BUFFERS + 2);
  state.idle = true;
  state.drained = true;
  arena.take(10);
  state.idle = false; // the frames taken from now on stay in use
  const again = [first[0]!];
  for (let n = 1; n < KEPT_BUFFERS + 2; n++) again.push(arena.take(10).buffer);
  // The kept ones come back in order (their counts cleared by the idle moment); past them, with
  // every kept buffer in use, each is fresh.
  assert.deepEqual(again.map((buffer) => first.indexOf(buffer)), [0, 1, 2, 3, -1, -1]);
  assert.equal(KEPT_BUFFERS, 4);
});

Deno.test("FrameArena without reuse conditions keeps nothing", () => {
  const arena = new FrameArena(10);
  const taken = Array.from({ length: 3 }, () => arena.take(10));
  for (const frame of taken) arena.release(frame);
  assert.equal(new Set([...taken, arena.take(10)].map((frame) => frame.buffer)).size, 4);
});
