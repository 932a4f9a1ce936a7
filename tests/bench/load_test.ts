import assert from "node:assert/strict";
import { runLoad } from "../../bench/harness/load.ts";

Deno.test("runLoad() runs warmup then count operations, never more than concurrency at once", async () => {
  const seen: number[] = [];
  let inFlight = 0;
  let peak = 0;
  const result = await runLoad(
    async (index) => {
      seen.push(index);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await Promise.resolve();
      inFlight--;
    },
    10,
    { concurrency: 3, warmup: 4 },
  );
  assert.equal(seen.length, 14);
  assert.equal(result.latencies.length, 10);
  assert.equal(peak, 3);
  assert.ok(result.elapsedMs >= 0);
});

Deno.test("runLoad() rejects with an operation's failure and a bad concurrency", async () => {
  await assert.rejects(
    runLoad(() => Promise.reject(new Error("boom")), 3),
    /boom/,
  );
  await assert.rejects(runLoad(() => Promise.resolve(), 1, { concurrency: 0 }), RangeError);
});
