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

Deno.test("FrameArena with reusable() starts again at its first kept buffer only when that says true", () => {
  let reusable = false;
  let asked = 0;
  const arena = new FrameArena(100, () => {
    asked++;
    return reusable;
  });
  const a = arena.take(60);
  const b = arena.take(60); // does not fit: a second buffer
  assert.notEqual(b.buffer, a.buffer);
  assert.equal(arena.take(10).buffer, b.buffer); // still in use: no reuse
  reusable = true;
  const c = arena.take(30);
  assert.equal(c.buffer, a.buffer);
  assert.equal(c.byteOffset, 0);
  reusable = false;
  const d = arena.take(80); // does not fit after c: the second kept buffer, from its start
  assert.equal(d.buffer, b.buffer);
  assert.equal(d.byteOffset, 0);
  assert.ok(asked >= 3);
  // The memory is not zeroed for the next frame: its writer fills it.
  c.fill(7);
  reusable = true;
  assert.equal(arena.take(1)[0], 7);
});

Deno.test("FrameArena keeps at most KEPT_BUFFERS buffers for use again", () => {
  let reusable = false;
  const arena = new FrameArena(10, () => reusable);
  const first = Array.from({ length: KEPT_BUFFERS + 2 }, () => arena.take(10).buffer);
  assert.equal(new Set(first).size, KEPT_BUFFERS + 2);
  reusable = true;
  arena.take(10);
  reusable = false;
  const again = [first[0]!];
  for (let n = 1; n < KEPT_BUFFERS + 2; n++) again.push(arena.take(10).buffer);
  // The kept ones come back in order; past them every buffer is fresh.
  assert.deepEqual(again.slice(0, KEPT_BUFFERS), first.slice(0, KEPT_BUFFERS));
  for (const buffer of again.slice(KEPT_BUFFERS)) assert.ok(!first.includes(buffer));
});

Deno.test("FrameArena without reusable() keeps nothing and never asks", () => {
  const arena = new FrameArena(10);
  const buffers = Array.from({ length: 3 }, () => arena.take(10).buffer);
  assert.equal(new Set(buffers).size, 3);
});
