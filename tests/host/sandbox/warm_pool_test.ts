import assert from "node:assert/strict";
import { loadToolDirs } from "../../../src/host/discovery.ts";
import { LogBuffer } from "../../../src/host/sandbox/log_buffer.ts";
import { ProcessRunner } from "../../../src/host/sandbox/process_runner.ts";
import { CLIENT_TOOLS_LIMITS } from "../../../src/protocol/limits.ts";
import { FIXTURES, NO_NAMESPACE, sandbox } from "./_setup.ts";

const [probe] = (await loadToolDirs([FIXTURES])).filter((entry) => entry.tool.name === "probe");
let counter = 0;

/** A call of the probe tool's `action` for {@link ProcessRunner.run}. */
function probeCall(
  action: string,
  options: { signal?: AbortSignal; graceMs?: number; deadlineMs?: number } = {},
) {
  return {
    tool: probe!.tool,
    file: probe!.file,
    message: {
      args: { action },
      callId: `call-${++counter}`,
      sessionId: "session-1",
      runId: "run-1",
      deadline: Date.now() + (options.deadlineMs ?? 20_000),
      cwd: Deno.cwd(),
      resultBytes: CLIENT_TOOLS_LIMITS.result_bytes,
    },
    signal: options.signal ?? new AbortController().signal,
    graceMs: options.graceMs ?? 300,
    log: new LogBuffer(),
  };
}

/** Run `count` overlapping `pid` calls of the probe tool; resolves with the pids that answered. */
async function overlappingPids(runner: ProcessRunner, count: number): Promise<number[]> {
  const calls = Array.from({ length: count }, () => runner.run(probeCall("pid")));
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

/** Start a `wait` call on `runner`'s warm probe process `pid` and SIGINT that process. */
async function interruptedCall(runner: ProcessRunner, pid: number, stop: AbortSignal) {
  let settled = false;
  const outcome = runner.run(
    probeCall("wait", { signal: stop, graceMs: 30_000, deadlineMs: 60_000 }),
  ).finally(() => settled = true);
  while (runner.idleCount > 0) await new Promise((r) => setTimeout(r, 10));
  // What a terminal's Ctrl-C does to a process still in its foreground group.
  Deno.kill(pid, "SIGINT");
  while (runner.pids("probe").includes(pid)) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 100));
  return { outcome, settled: () => settled };
}

Deno.test("ProcessRunner: a tool process killed by SIGINT waits for the call's stop (Ctrl-C)", async () => {
  const runner = new ProcessRunner({ cwd: Deno.cwd(), maxIdle: 1, processLimits: NO_NAMESPACE });
  try {
    const [pid] = await overlappingPids(runner, 1);
    const stop = new AbortController();
    const call = await interruptedCall(runner, pid!, stop.signal);
    // The process is gone, but the call is not answered as a crash: the cancel is coming.
    assert.equal(call.settled(), false);
    stop.abort();
    const outcome = await call.outcome;
    assert.deepEqual(outcome, {
      kind: "crashed",
      message: "the tool process was killed by SIGINT",
      interrupted: true,
    });
  } finally {
    await runner.close();
  }
});

Deno.test("ToolExecutor: a call whose process a Ctrl-C killed is cancelled once the stop follows", async () => {
  const box = await sandbox({ processLimits: NO_NAMESPACE });
  try {
    const first = await box.call("probe", { action: "pid" });
    assert.equal(first.outcome, "success", JSON.stringify(first));
    const stop = new AbortController();
    const result = box.call("probe", { action: "wait" }, { signal: stop.signal });
    await new Promise((r) => setTimeout(r, 200));
    Deno.kill(Number(first.text), "SIGINT");
    // The host notices the death before its own SIGINT handling stops the call.
    await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    const answered = await result;
    assert.equal(answered.outcome, "cancelled", JSON.stringify(answered));
  } finally {
    await box.close();
  }
});
