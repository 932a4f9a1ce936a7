import assert from "node:assert/strict";
import { measureEcho, resultShape } from "../../bench/harness/echo_parent.ts";
import { encodeFrame } from "../../src/protocol/framing.ts";
import { requestFrame } from "../../src/protocol/envelope.ts";

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

Deno.test("resultShape() gives the parts, frame sizes and window the host's result path has", () => {
  const k60 = resultShape(60 * 1024);
  assert.equal(k60.parts, 4);
  assert.equal(k60.window, 6);
  // A part frame holds its share of the text (15,360 of 61,440 bytes) and the request envelope.
  const bare = encodeFrame(requestFrame("r100000", "client.tool.result", { text: "" })).length;
  assert.ok(k60.partBytes > 15_360 + bare, `${k60.partBytes}`);
  assert.ok(k60.partBytes < 15_360 + 400, `${k60.partBytes}`);
  assert.ok(k60.answerBytes > 100 && k60.answerBytes < 300, `${k60.answerBytes}`);
  const m1 = resultShape(1024 * 1024);
  assert.equal(m1.parts, 64);
  assert.equal(m1.partBytes - k60.partBytes, 16_384 - 15_360);
  assert.equal(resultShape(5).parts, 1);
});

Deno.test("measureEcho() with a result shape completes every call through the window", async () => {
  // 8 parts a call at concurrency 4 against a window of 3: most parts wait for answers first.
  const shape = { parts: 8, partBytes: 1000, answerBytes: 50, window: 3 };
  for (const concurrency of [1, 4]) {
    const result = await measureEcho(200, { concurrency, warmup: 10, result: shape });
    assert.equal(result.calls, 200);
    assert.equal((result.latency_ms as { count: number }).count, 200);
    assert.equal(result.parts, 8);
    assert.equal(result.window, 3);
    assert.equal(result.line_bytes, 1000);
    const cpu = result.cpu_us_per_call as Record<string, number>;
    assert.deepEqual(Object.keys(cpu).sort(), ["child", "parent"]);
  }
});

Deno.test("measureEcho() refuses a result shape it cannot write", async () => {
  const bad = { parts: 2, partBytes: 1000, answerBytes: 1, window: 3 };
  await assert.rejects(
    measureEcho(1, { concurrency: 1, warmup: 0, result: bad }),
    /lines need at least one byte before their LF/,
  );
  await assert.rejects(
    measureEcho(1, { concurrency: 1, warmup: 0, result: { ...bad, window: 0 } }),
    /window must be a positive integer: 0/,
  );
});
