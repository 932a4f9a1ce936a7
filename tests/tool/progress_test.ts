import assert from "node:assert/strict";
import {
  PROGRESS_BURST,
  PROGRESS_INTERVAL_MS,
  PROGRESS_MESSAGE_BYTES,
  ProgressLimiter,
  progressUpdate,
} from "../../src/tool/progress.ts";
import type { ToolProgress } from "../../src/tool/external.ts";
import { FakeTime } from "../_fake_time.ts";

Deno.test("progressUpdate checks ctx.progress's arguments, naming the bad one", () => {
  assert.deepEqual(progressUpdate(1, 3, "one"), { progress: 1, total: 3, message: "one" });
  assert.deepEqual(progressUpdate(0.5), { progress: 0.5 });
  assert.throws(() => progressUpdate(Number.NaN), /ctx\.progress: done must be a finite number/);
  assert.throws(() => progressUpdate("1"), /done must be a finite number/);
  assert.throws(() => progressUpdate(1, Infinity), /total must be a finite number/);
  assert.throws(() => progressUpdate(1, 2, 3), /message must be a string/);
  const long = progressUpdate(1, 2, "x".repeat(1_000)).message!;
  assert.equal(new TextEncoder().encode(long).length <= PROGRESS_MESSAGE_BYTES, true);
  assert.ok(long.endsWith("…"));
});

Deno.test("ProgressLimiter: a burst passes, then 10 a second; the newest held one comes last", async () => {
  const time = new FakeTime();
  const sent: ToolProgress[] = [];
  const limiter = new ProgressLimiter((update) => sent.push(update), time);
  for (let done = 1; done <= 1_000; done++) limiter.push({ progress: done });
  assert.deepEqual(
    sent.map((u) => u.progress),
    [...Array(PROGRESS_BURST).keys()].map((i) => i + 1),
  );
  await time.tick(PROGRESS_INTERVAL_MS);
  // One token came back: the newest waiting update (not the 11th) went out.
  assert.deepEqual(sent.at(-1), { progress: 1_000 });
  assert.equal(sent.length, PROGRESS_BURST + 1);
  limiter.push({ progress: 1_001 });
  limiter.push({ progress: 1_002 });
  limiter.close();
  assert.deepEqual(sent.at(-1), { progress: 1_002 });
  assert.equal(sent.length, PROGRESS_BURST + 2);
  limiter.push({ progress: 2_000 });
  await time.tick(10 * PROGRESS_INTERVAL_MS);
  assert.equal(sent.length, PROGRESS_BURST + 2, "nothing after close");
});

Deno.test("ProgressLimiter drops an unchanged update; discard drops what is held", async () => {
  const time = new FakeTime();
  const sent: ToolProgress[] = [];
  const limiter = new ProgressLimiter((update) => sent.push(update), time);
  limiter.push({ progress: 1, total: 2 });
  limiter.push({ progress: 1, total: 2 });
  limiter.push({ progress: 1, total: 2, message: "m" });
  assert.equal(sent.length, 2);
  for (let i = 0; i < 20; i++) limiter.push({ progress: 2 + i });
  const before = sent.length;
  limiter.discard();
  await time.tick(10 * PROGRESS_INTERVAL_MS);
  assert.equal(sent.length, before);
});
