import assert from "node:assert/strict";
import { LOG_FLUSH_MS, LogBuffer, type ToolLog } from "../../src/sandbox/log_buffer.ts";
import { FakeTime } from "../_fake_time.ts";

Deno.test("LogBuffer streams output once per window, the rest and the marker at finish", async () => {
  const time = new FakeTime();
  const logs: ToolLog[] = [];
  const log = new LogBuffer(10, {
    deliver: (piece) => logs.push(piece),
    callId: "c1",
    name: "t",
    clock: time,
  });
  log.append("ab\n");
  log.append("cd\n");
  assert.equal(logs.length, 0, "held until the window ends");
  await time.tick(LOG_FLUSH_MS);
  assert.deepEqual(logs, [{
    callId: "c1",
    name: "t",
    text: "ab\ncd\n",
    bytes: 6,
    truncatedBytes: 0,
  }]);
  log.append("efghijk\n"); // 4 bytes fit the 10-byte bound, 4 are cut
  log.addDropped(5); // and 5 the tool process dropped itself
  log.finish();
  assert.deepEqual(logs[1], {
    callId: "c1",
    name: "t",
    text: "efgh\n[… 9 bytes truncated]",
    bytes: 13,
    truncatedBytes: 9,
  });
  log.append("late");
  log.finish();
  await time.tick(LOG_FLUSH_MS);
  assert.equal(logs.length, 2, "nothing after finish");
  // Over the call: bytes add up to what was written.
  assert.equal(logs.reduce((sum, piece) => sum + piece.bytes, 0), 6 + 8 + 5);
});
