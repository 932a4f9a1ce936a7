import assert from "node:assert/strict";
import { toolIdOf } from "../../src/protocol/canonical.ts";
import { requestFrame } from "../../src/protocol/envelope.ts";
import { readFrames } from "../../src/transport/reader.ts";
import type { FakeBackendStats } from "../../bench/harness/fake_backend.ts";

const FAKE = new URL("../../bench/harness/fake_backend.ts", import.meta.url).pathname;
const TOOL = {
  name: "trivial",
  description: "Return 5 bytes of text.",
  input_schema: { type: "object", properties: {}, additionalProperties: false },
  effect: "read",
};

Deno.test("fake_backend registers tools, times calls to their last part and writes stats", async () => {
  const statsFile = await Deno.makeTempFile();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", FAKE],
    env: {
      BENCH_STATS_FILE: statsFile,
      BENCH_TOOL: "trivial",
      BENCH_CALLS: "2",
      BENCH_WARMUP: "1",
      BENCH_CONCURRENCY: "1",
    },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const frames = readFrames(child.stdout)[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let id = 0;
  const send = (method: string, params: Record<string, unknown>) =>
    writer.write(
      encoder.encode(JSON.stringify(requestFrame(`r${++id}`, method, params as never)) + "\n"),
    );
  const next = async () => {
    const item = await frames.next();
    assert.ok(!item.done && item.value.kind === "frame");
    return JSON.parse(item.value.text);
  };
  try {
    await send("initialize", {
      required_capabilities: ["client.tools", "session.create", "turn.start", "shutdown"],
      client_tools: [TOOL],
    });
    const init = await next();
    assert.equal(init.result.descriptors["client.tools"].tools[0].tool_id, toolIdOf(TOOL));
    assert.ok(init.result.capabilities.includes("client.tools"));
    await send("session.create", {});
    const session = (await next()).result.session_id;
    await send("turn.start", { session_id: session, prompt: "bench" });
    const runId = (await next()).result.run_id;
    let calls = 0;
    for (;;) {
      const frame = await next();
      if (frame.type === "response") continue;
      if (frame.event === "run.finished") {
        assert.equal(frame.data.outcome, "completed");
        break;
      }
      assert.equal(frame.event, "client.tool.call");
      assert.equal(frame.data.tool_id, toolIdOf(TOOL));
      calls++;
      const base = { session_id: session, run_id: runId, call_id: frame.data.call_id };
      await send("client.tool.result", {
        ...base,
        part: 0,
        last_part: false,
        outcome: "success",
        text: "hel",
      });
      await send("client.tool.result", {
        ...base,
        part: 1,
        last_part: true,
        outcome: "success",
        text: "lo",
      });
    }
    assert.equal(calls, 3); // 1 warmup + 2 timed
    await send("shutdown", {});
    assert.equal((await next()).result.state, "stopping");
    const stats = JSON.parse(await Deno.readTextFile(statsFile)) as FakeBackendStats;
    assert.equal(stats.calls, 2);
    assert.equal(stats.result_bytes, 5);
    assert.equal(stats.failed_calls, 0);
    assert.equal(stats.latency_ms?.count, 2);
    assert.equal(stats.host_pid, Deno.pid);
    assert.equal(stats.rss_kb.length, 2);
    assert.ok(stats.hwm_kb > 0);
    assert.ok(stats.host_cpu_ms >= 0);
    assert.ok(stats.backend_cpu_ms >= 0);
    // The system parts are parts of those totals.
    assert.ok(stats.host_cpu_system_ms! >= 0 && stats.host_cpu_system_ms! <= stats.host_cpu_ms);
    assert.ok(
      stats.backend_cpu_system_ms! >= 0 && stats.backend_cpu_system_ms! <= stats.backend_cpu_ms,
    );
    assert.ok(stats.host_cpu_at_initialize_ms >= 0);
  } finally {
    await writer.close().catch(() => {});
    await frames.return?.(undefined);
    await child.status;
    await Deno.remove(statsFile);
  }
});
