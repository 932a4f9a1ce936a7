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

/** Reuse conditions a test sets: `idle`, and the frames `collect()` releases (then forgets). */
function conditions() {
  const state = { idle: false, left: [] as Uint8Array[], collected: 0 };
  let arena!: FrameArena;
  const reuse = {
    idle: () => state.idle,
    collect: () => {
      state.collected++;
      for (const frame of state.left.splice(0)) arena.release(frame);
    },
  };
  const make = (size: number) => (arena = new FrameArena(size, reuse));
  return { state, make };
}

Deno.test("FrameArena starts again at its first kept buffer when idle", () => {
  const { state, make } = conditions();
  const arena = make(100);
  const a = arena.take(60);
  const b = arena.take(60); // does not fit: a second buffer (a's frame is not released)
  assert.notEqual(b.buffer, a.buffer);
  assert.equal(arena.take(10).buffer, b.buffer);
  state.idle = true; // every frame so far left the process (none was released one by one)
  const c = arena.take(30);
  assert.equal(c.buffer, a.buffer);
  assert.equal(c.byteOffset, 0);
  state.idle = false;
  const d = arena.take(80); // does not fit after c: the second kept buffer, from its start
  assert.equal(d.buffer, b.buffer);
  assert.equal(d.byteOffset, 0);
  // The memory is not zeroed for the next frame: its writer fills it.
  c.fill(7);
  state.idle = true;
  assert.equal(arena.take(1)[0], 7);
});

Deno.test("FrameArena uses a kept buffer again while others are in use once collect() released all its frames", () => {
  const { state, make } = conditions();
  const arena = make(100);
  const a1 = arena.take(50);
  const a2 = arena.take(50);
  const before = state.collected;
  const b = arena.take(100); // a second buffer; a's stays in use
  assert.notEqual(b.buffer, a1.buffer);
  assert.equal(state.collected, before + 1, "a new buffer is chosen after collecting what left");
  state.left.push(a1);
  // One of a's frames has not left: a fresh buffer, not a's.
  const c = arena.take(100);
  assert.ok(c.buffer !== a1.buffer && c.buffer !== b.buffer);
  // a2 leaves too, and the arena learns it only from collect(): a's buffer, from its start.
  state.left.push(a2);
  const e = arena.take(100);
  assert.equal(e.buffer, a1.buffer);
  assert.equal(e.byteOffset, 0);
  // Every kept buffer holds a frame that has not left (b, c, e): fresh memory.
  assert.ok(![a1.buffer, b.buffer, c.buffer].includes(arena.take(100).buffer));
  // Releasing a frame of memory the arena does not keep changes nothing.
  arena.release(new Uint8Array(10));
  arena.release(arena.take(1_000)); // too large for a buffer: its own memory
});

Deno.test("FrameArena keeps at most KEPT_BUFFERS buffers for use again", () => {
  const { state, make } = conditions();
  const arena = make(10);
  const first = Array.from({ length: KEPT_BUFFERS + 2 }, () => arena.take(10).buffer);
  assert.equal(new Set(first).size, KEPT_BUFFERS + 2);
  state.idle = true;
  arena.take(10);
  state.idle = false; // the frames taken from now on stay in use
  const again = [first[0]!];
  for (let n = 1; n < KEPT_BUFFERS + 2; n++) again.push(arena.take(10).buffer);
  // The kept ones come back in order (their counts cleared by the idle moment); past them, with
  // every kept buffer in use, each is fresh.
  const kept = Array.from({ length: KEPT_BUFFERS }, (_, n) => n);
  assert.deepEqual(again.map((buffer) => first.indexOf(buffer)), [...kept, -1, -1]);
  assert.equal(KEPT_BUFFERS, 8);
});

Deno.test("FrameArena without reuse conditions keeps nothing", () => {
  const arena = new FrameArena(10);
  const taken = Array.from({ length: 3 }, () => arena.take(10));
  for (const frame of taken) arena.release(frame);
  assert.equal(new Set([...taken, arena.take(10)].map((frame) => frame.buffer)).size, 4);
});
