import assert from "node:assert/strict";
import { loadToolDirs } from "../../../src/host/discovery.ts";
import { LogBuffer } from "../../../src/host/sandbox/log_buffer.ts";
import { ProcessRunner } from "../../../src/host/sandbox/process_runner.ts";
import { CLIENT_TOOLS_LIMITS } from "../../../src/protocol/limits.ts";
import { FIXTURES, sandbox } from "./_setup.ts";

const [probe] = (await loadToolDirs([FIXTURES])).filter((entry) => entry.tool.name === "probe");
let counter = 0;

/** Run `count` overlapping `pid` calls of the probe tool; resolves with the pids that answered. */
async function overlappingPids(runner: ProcessRunner, count: number): Promise<number[]> {
  const calls = Array.from({ length: count }, () =>
    runner.run({
      tool: probe!.tool,
      file: probe!.file,
      message: {
        args: { action: "pid" },
        callId: `call-${++counter}`,
        sessionId: "session-1",
        runId: "run-1",
        deadline: Date.now() + 20_000,
        cwd: Deno.cwd(),
        resultBytes: CLIENT_TOOLS_LIMITS.result_bytes,
      },
      signal: new AbortController().signal,
      graceMs: 300,
      log: new LogBuffer(),
    }));
  return (await Promise.all(calls)).map((outcome) => {
    assert.equal(outcome.kind, "value", JSON.stringify(outcome));
    return Number((outcome as { text: string }).text);
  });
}

Deno.test("ProcessRunner keeps concurrent_calls warm processes per tool, so overlapping calls reuse them", async () => {
  const runner = new ProcessRunner({ cwd: Deno.cwd(), maxIdle: 4 });
  try {
    const first = await overlappingPids(runner, 4);
    assert.equal(new Set(first).size, 4);
    assert.equal(runner.idleCount, 4);
    const second = await overlappingPids(runner, 4);
    assert.deepEqual([...second].sort(), [...first].sort());
    assert.deepEqual(runner.pids("probe").sort(), [...first].sort());
  } finally {
    await runner.close();
  }
});

Deno.test("ProcessRunner closes idle processes over maxIdleTotal, keeping the most recent", async () => {
  const runner = new ProcessRunner({ cwd: Deno.cwd(), maxIdle: 4, maxIdleTotal: 2 });
  try {
    const first = await overlappingPids(runner, 3);
    assert.equal(new Set(first).size, 3);
    assert.equal(runner.idleCount, 2);
    // The two kept processes answer the next two overlapping calls without a new spawn.
    const second = await overlappingPids(runner, 2);
    for (const pid of second) assert.ok(first.includes(pid), `${pid} is a new process`);
  } finally {
    await runner.close();
  }
});

Deno.test("ToolExecutor runs overlapping calls of one isolated tool on the same warm processes", async () => {
  const box = await sandbox();
  try {
    const round = async () => {
      const results = await Promise.all(
        Array.from(
          { length: CLIENT_TOOLS_LIMITS.concurrent_calls },
          () => box.call("probe", { action: "pid" }),
        ),
      );
      return results.map((result) => {
        assert.equal(result.outcome, "success", JSON.stringify(result));
        return Number(result.text);
      }).sort();
    };
    const first = await round();
    assert.equal(new Set(first).size, CLIENT_TOOLS_LIMITS.concurrent_calls);
    assert.deepEqual(await round(), first);
  } finally {
    await box.close();
  }
});
