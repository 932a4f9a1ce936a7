import assert from "node:assert/strict";
import { measureEcho } from "../../bench/harness/echo_parent.ts";

Deno.test("measureEcho() completes every round trip at each concurrency and reads both processes' CPU", async () => {
  for (const concurrency of [1, 4]) {
    const result = await measureEcho(300, { concurrency, warmup: 20 });
    assert.equal(result.calls, 300);
    assert.equal(result.concurrency, concurrency);
    assert.equal((result.latency_ms as { count: number }).count, 300);
    const cpu = result.cpu_us_per_call as Record<string, number>;
    assert.deepEqual(Object.keys(cpu).sort(), ["child", "parent"]);
    assert.ok(cpu.parent! >= 0 && cpu.child! >= 0);
  }
});
