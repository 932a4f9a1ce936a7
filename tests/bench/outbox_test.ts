import assert from "node:assert/strict";
import { Outbox } from "../../bench/harness/outbox.ts";

function sink(delayMs: number): { chunks: number[][]; stream: WritableStream<Uint8Array> } {
  const chunks: number[][] = [];
  const stream = new WritableStream<Uint8Array>({
    async write(chunk) {
      chunks.push([...chunk]);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    },
  });
  return { chunks, stream };
}

Deno.test("Outbox writes the first frame at once and coalesces frames queued meanwhile", async () => {
  const { chunks, stream } = sink(5);
  const box = new Outbox(stream);
  box.push(new Uint8Array([1]));
  box.push(new Uint8Array([2, 3]));
  box.push(new Uint8Array([4]));
  await box.close();
  assert.deepEqual(chunks, [[1], [2, 3, 4]]);
});

Deno.test("Outbox keeps order across many pushes", async () => {
  const { chunks, stream } = sink(0);
  const box = new Outbox(stream);
  for (let i = 0; i < 100; i++) box.push(new Uint8Array([i]));
  await box.flushed();
  assert.deepEqual(chunks.flat(), Array.from({ length: 100 }, (_, i) => i));
  await box.close();
});

Deno.test("Outbox drops frames after a failed write instead of throwing", async () => {
  const stream = new WritableStream<Uint8Array>({
    write() {
      throw new Error("broken pipe");
    },
  });
  const box = new Outbox(stream);
  box.push(new Uint8Array([1]));
  await box.flushed();
  box.push(new Uint8Array([2]));
  await box.flushed();
  await box.close();
});
