import assert from "node:assert/strict";
import { loadToolDirs } from "../../src/toolset/discovery.ts";
import { LogBuffer } from "../../src/sandbox/log_buffer.ts";
import { ProcessRunner } from "../../src/sandbox/process_runner.ts";
import { CLIENT_TOOLS_LIMITS } from "../../src/protocol/limits.ts";
import { eventually } from "../_wait.ts";
import { drainMicrotasks } from "../_fake_time.ts";
import { FIXTURES, NO_NAMESPACE, sandbox, StartSignal } from "./_setup.ts";

const fixtures = await loadToolDirs([FIXTURES]);
const probe = fixtures.find((entry) => entry.tool.name === "probe")!;
const beacon = fixtures.find((entry) => entry.tool.name === "beacon")!;
let counter = 0;

interface CallOptions {
  signal?: AbortSignal;
  graceMs?: number;
  deadlineMs?: number;
}

/** A call of the probe tool's `action` for {@link ProcessRunner.run}. */
function probeCall(action: string, options: CallOptions = {}) {
  return fixtureCall(probe, { action }, options);
}

/** A call of the beacon tool (`fixtures/beacon.ts`) for {@link ProcessRunner.run}. */
function beaconCall(args: { action: string; port?: number }, options: CallOptions = {}) {
  return fixtureCall(beacon, args, options);
}

function fixtureCall(
  fixture: typeof probe,
  args: Record<string, unknown>,
  options: CallOptions,
) {
  return {
    tool: fixture.tool,
    file: fixture.file,
    message: {
      args,
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

/**
 * Start a `wait` call of the beacon tool on `runner`'s warm process `pid`, SIGINT that process
 * once the call runs, and return once the runner saw the process die.
 */
async function interruptedCall(runner: ProcessRunner, pid: number, stop: AbortSignal) {
  const start = new StartSignal();
  try {
    let settled = false;
    const outcome = runner.run(
      beaconCall({ action: "wait", port: start.port }, {
        signal: stop,
        graceMs: 30_000,
        deadlineMs: 60_000,
      }),
    ).finally(() => settled = true);
    await start.started();
    // What a terminal's Ctrl-C does to a process still in its foreground group.
    Deno.kill(pid, "SIGINT");
    assert.ok(await eventually(() => !runner.pids("beacon").includes(pid)), "the process died");
    // The runner has the crash now (its pool dropped the process in the same turn); a wrong
    // answer would have settled the call by the end of this turn.
    await drainMicrotasks();
    return { outcome, settled: () => settled };
  } finally {
    start.close();
  }
}

Deno.test("ProcessRunner: a tool process killed by SIGINT waits for the call's stop (Ctrl-C)", async () => {
  const runner = new ProcessRunner({ cwd: Deno.cwd(), maxIdle: 1, processLimits: NO_NAMESPACE });
  try {
    const first = await runner.run(beaconCall({ action: "pid" }));
    assert.equal(first.kind, "value", JSON.stringify(first));
    const pid = Number((first as { text: string }).text);
    const stop = new AbortController();
    const call = await interruptedCall(runner, pid, stop.signal);
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
  const start = new StartSignal();
  try {
    const first = await box.call("beacon", { action: "pid" });
    assert.equal(first.outcome, "success", JSON.stringify(first));
    const pid = Number(first.text);
    const stop = new AbortController();
    const result = box.call("beacon", { action: "wait", port: start.port }, {
      signal: stop.signal,
    });
    await start.started();
    Deno.kill(pid, "SIGINT");
    // The host notices the death before its own SIGINT handling stops the call.
    const gone = async () => !(await box.executor.processIds("beacon")).includes(pid);
    assert.ok(await eventually(gone), "the host saw the process die");
    stop.abort();
    const answered = await result;
    assert.equal(answered.outcome, "cancelled", JSON.stringify(answered));
  } finally {
    start.close();
    await box.close();
  }
});
