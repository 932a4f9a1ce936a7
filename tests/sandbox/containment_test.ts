import assert from "node:assert/strict";
import { GRACE_MS, sandbox, StartSignal } from "./_setup.ts";

Deno.test("the warm tool process is reused across calls (same pid)", async () => {
  const box = await sandbox();
  try {
    const first = await box.call("probe", { action: "pid" });
    const second = await box.call("probe", { action: "pid" });
    assert.equal(first.outcome, "success");
    assert.equal(second.text, first.text);
    assert.deepEqual(await box.executor.processIds("probe"), [Number(first.text)]);
  } finally {
    await box.close();
  }
});

Deno.test("an infinite loop is killed after the deadline and grace; the next call gets a fresh process", async () => {
  const box = await sandbox();
  try {
    const before = await box.call("probe", { action: "pid" });
    const deadlineMs = 500;
    const result = await box.call("probe", { action: "spin" }, { deadlineMs });
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "timeout");
    assert.equal(result.killed, true);
    assert.equal(result.abandoned, false);
    assert.match(result.text, /its process was killed$/);
    // Functional bound (not a benchmark): the loop did not hold the call much past grace.
    assert.ok(result.durationMs < deadlineMs + GRACE_MS + 2_000, `${result.durationMs} ms`);
    const after = await box.call("probe", { action: "pid" });
    assert.equal(after.outcome, "success");
    assert.notEqual(after.text, before.text);
  } finally {
    await box.close();
  }
});

Deno.test("a cancelled call whose tool ignores the signal is answered cancelled and killed", async () => {
  const box = await sandbox();
  const start = new StartSignal();
  try {
    const controller = new AbortController();
    const pending = box.call("beacon", { action: "spin", port: start.port }, {
      signal: controller.signal,
    });
    // Cancelled once the tool spins (the event, not a sleep).
    await start.started();
    controller.abort();
    const result = await pending;
    assert.equal(result.outcome, "cancelled");
    assert.equal(result.killed, true);
    assert.equal((await box.call("probe", { action: "echo", target: "ok" })).text, "ok");
  } finally {
    start.close();
    await box.close();
  }
});

Deno.test("a cancelled call whose tool honours the signal is answered cancelled without a kill", async () => {
  const box = await sandbox();
  const start = new StartSignal();
  try {
    const before = await box.call("beacon", { action: "pid" });
    const controller = new AbortController();
    const pending = box.call("beacon", { action: "wait", port: start.port }, {
      signal: controller.signal,
    });
    await start.started();
    controller.abort();
    const result = await pending;
    assert.equal(result.outcome, "cancelled");
    assert.equal(result.killed, false);
    assert.equal((await box.call("beacon", { action: "pid" })).text, before.text);
  } finally {
    start.close();
    await box.close();
  }
});

Deno.test("a memory bomb over memoryMb is tool_crashed; the host survives and restarts the process", async () => {
  const box = await sandbox();
  try {
    const before = await box.call("crash", { how: "pid" });
    const result = await box.call("crash", { how: "memory" });
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "tool_crashed");
    assert.match(result.text, /the tool exceeded its memory limit of 64 MiB/);
    const after = await box.call("crash", { how: "pid" });
    assert.equal(after.outcome, "success");
    assert.notEqual(after.text, before.text);
  } finally {
    await box.close();
  }
});

Deno.test("an off-heap memory bomb (ArrayBuffers) over memoryMb is tool_crashed; the host survives", async () => {
  const box = await sandbox();
  try {
    const before = await box.call("crash", { how: "pid" });
    const result = await box.call("crash", { how: "buffers" });
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "tool_crashed");
    assert.equal(
      result.text,
      "Tool process crashed: the tool exceeded its memory limit of 64 MiB; it restarts for the next call",
    );
    const after = await box.call("crash", { how: "pid" });
    assert.equal(after.outcome, "success");
    assert.notEqual(after.text, before.text);
  } finally {
    await box.close();
  }
});

for (
  const [how, text] of [["exit", /exited with code 3/], [
    "timer",
    /Error: boom in a timer/,
  ]] as const
) {
  Deno.test(`a tool that crashes its process (${how}) is tool_crashed and restarted`, async () => {
    const box = await sandbox();
    try {
      const before = await box.call("crash", { how: "pid" });
      const result = await box.call("crash", { how });
      assert.equal(result.outcome, "error");
      assert.equal(result.errorCode, "tool_crashed");
      assert.match(result.text, text);
      const after = await box.call("crash", { how: "pid" });
      assert.equal(after.outcome, "success");
      assert.notEqual(after.text, before.text);
    } finally {
      await box.close();
    }
  });
}

Deno.test("concurrent calls of one tool run in separate processes", async () => {
  const box = await sandbox();
  try {
    const controller = new AbortController();
    const waiting = box.call("probe", { action: "wait" }, { signal: controller.signal });
    const other = await box.call("probe", { action: "pid" });
    assert.equal(other.outcome, "success", other.text);
    assert.equal((await box.executor.processIds("probe")).length, 2);
    controller.abort();
    assert.equal((await waiting).outcome, "cancelled");
    const warm = await box.executor.processIds("probe");
    const again = await box.call("probe", { action: "pid" });
    // Both processes stay warm (up to concurrent_calls per tool): no new one is started.
    assert.ok(warm.includes(Number(again.text)), "an idle process is reused");
    assert.deepEqual(await box.executor.processIds("probe"), warm);
  } finally {
    await box.close();
  }
});

Deno.test("a tool process that cannot be started is tool_crashed, not a host failure", async () => {
  const box = await sandbox({ denoPath: "/nonexistent/deno" });
  try {
    const result = await box.call("probe", { action: "pid" });
    assert.equal(result.outcome, "error");
    assert.equal(result.errorCode, "tool_crashed");
    assert.match(result.text, /^Tool process crashed: the tool process cannot be started: /);
  } finally {
    await box.close();
  }
});
