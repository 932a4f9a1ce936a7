/**
 * `BackendRun` without spawning: its backend child is an in-memory handle (the kit's `memoryChild`)
 * to a backend served in this process, the kit's `FakeBackend` or the
 * reference backend's `serve()`, and its tools are defined here (an inline module tool and an
 * external one that reports progress). Every test runs without the `run` permission, so a
 * spawn anywhere would fail it.
 *
 * Covers what the spawning `host_run_busy_test.ts` covered (a later turn waits while the
 * backend answers `busy` after the previous run; the first turn does not; it gives up after
 * about 5 s, here of fake time), a tool call through the connection's wiring and its records'
 * routing to the current turn's writer, each turn's own stop state, and the shutdown of the
 * child (EOF, no signal).
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { defineTool } from "../../src/tool/define.ts";
import { defineExternalTool } from "../../src/tool/external.ts";
import { ToolRegistry } from "../../src/toolset/registry.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { serve } from "../../src/reference_backend/mod.ts";
import { ApprovalDecider } from "../../src/run/approvals.ts";
import { EXIT } from "../../src/run/exit_codes.ts";
import { isReported } from "../../src/errors/mod.ts";
import { BackendRun, REQUIRED_CAPABILITIES } from "../../src/run/backend_run.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";
import { drainMicrotasks, FakeTime } from "../_fake_time.ts";
import {
  type BackendIo,
  eventually,
  fakeBackend as scriptedBackend,
  type FakeBackendOptions as ScriptedBackendOptions,
  type MemoryChild,
  memoryChild,
  NO_SPAWN,
  one,
} from "../_kit/mod.ts";

Deno.test({
  name: "these tests run without the run permission",
  permissions: NO_SPAWN,
  fn: () => {
    assert.notEqual(Deno.permissions.querySync({ name: "run" }).state, "granted");
    assert.throws(
      () => new Deno.Command(Deno.execPath(), { args: ["--version"] }).outputSync(),
      Deno.errors.NotCapable,
    );
  },
});

const echo = defineTool({
  name: "echo_text",
  description: "Return the text.",
  input: z.strictObject({ text: z.string() }),
  effect: "read",
  isolation: "inline",
  run: ({ text }) => `echo: ${text}`,
});

/** An external (MCP-like) tool that reports progress 1/2 and 2/2 before it answers. */
const count = defineExternalTool({
  name: "srv_count",
  description: "Count to two, reporting progress.",
  inputSchema: { type: "object", properties: {} },
  effect: "read",
  source: { kind: "mcp", name: "srv" },
  validate: () => null,
  run: (_args, ctx) => {
    ctx.progress({ progress: 1, total: 2 });
    ctx.progress({ progress: 2, total: 2, message: "done" });
    return Promise.resolve("counted");
  },
});

const registry = ToolRegistry.fromLoaded(
  [{ tool: echo, file: "echo_text.ts", url: import.meta.url }],
  { requiredCapabilities: REQUIRED_CAPABILITIES, external: [count] },
);

type Rec = Record<string, unknown>;

/** A summary writer whose records are collected in `records`. */
function recordingWriter(): { records: Rec[]; writer: SummaryWriter } {
  const records: Rec[] = [];
  const decoder = new TextDecoder();
  const writer = new SummaryWriter((bytes) => {
    for (const line of decoder.decode(bytes).split("\n")) {
      if (line !== "") records.push(JSON.parse(line));
    }
    return Promise.resolve();
  }, { selfCheck: true });
  return { records, writer };
}

/** A connection to `serveBackend` over in-memory streams (on `clock`'s time), initialized. */
async function connect(serveBackend: (io: BackendIo) => Promise<number>, clock?: FakeTime) {
  const { records, writer } = recordingWriter();
  const child: MemoryChild = memoryChild(serveBackend);
  const host = await BackendRun.start({
    toolDirs: [],
    registry,
    agent: { command: "in-memory", args: [], source: "flag", label: "in_memory" },
    cwd: Deno.cwd(),
    kernelSandbox: "off",
    writer,
    backend: { child },
    ...(clock === undefined ? {} : { clock }),
  });
  if (isReported(host)) throw new Error(`not started: ${host.code}`);
  assert.equal(await host.initialize(writer), null);
  const turn = (prompt = "hello", turnWriter = writer) =>
    host.turn({
      prompt,
      session: undefined,
      writer: turnWriter,
      deltas: false,
      approvals: new ApprovalDecider("deny", null),
      lastMessage: undefined,
    });
  return { host, child, records, writer, turn };
}

const scripted = (options: ScriptedBackendOptions, clock?: FakeTime) =>
  connect(scriptedBackend(options), clock);

function isBusy(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === "busy";
}

for (const method of ["session.create", "turn.start"] as const) {
  Deno.test({
    name: `BackendRun.turn() waits while ${method} answers busy after the previous run`,
    permissions: NO_SPAWN,
    fn: async () => {
      const { host, records, writer, turn } = await scripted({ busyMethod: method, busyCount: 2 });
      try {
        assert.equal(await turn(), 0);
        assert.equal(await turn(), 0);
        await writer.flush();
        const finished = records.filter((r) => r.type === "turn.finished");
        assert.deepEqual(finished.map((r) => [r.run_id, r.outcome]), [
          ["run1", "completed"],
          ["run2", "completed"],
        ]);
      } finally {
        await host.stop();
      }
    },
  });
}

for (const method of ["session.create", "turn.start"] as const) {
  Deno.test({
    name: `BackendRun.turn() passes on busy from ${method} on the connection's first turn`,
    permissions: NO_SPAWN,
    fn: async () => {
      // One busy answer only: a retry would succeed, so the failure shows there was none.
      const { host, turn } = await scripted({ busyMethod: method, busyCount: 1, busyFirst: true });
      try {
        await assert.rejects(turn(), isBusy);
      } finally {
        await host.stop();
      }
    },
  });
}

Deno.test({
  name: "BackendRun.turn() gives up after about 5 s of busy after the previous run",
  permissions: NO_SPAWN,
  fn: async () => {
    // On fake time: the retry's pauses and its 5 s bound are the connection's clock's.
    const time = new FakeTime();
    const { host, turn } = await scripted(
      { busyMethod: "session.create", busyCount: Infinity },
      time,
    );
    try {
      assert.equal(await turn(), 0);
      const started = time.now();
      let settled = false;
      const second = turn().finally(() => settled = true);
      second.catch(() => {}); // Handled at once: the rejection is asserted below.
      await whileArmed(time, () => settled);
      await assert.rejects(second, isBusy);
      const waitedMs = time.now() - started;
      assert.ok(waitedMs >= 4_900, `waited ${Math.round(waitedMs)} ms before giving up`);
      assert.ok(waitedMs < 8_000, `gave up within the bound: ${Math.round(waitedMs)} ms`);
    } finally {
      await host.stop();
    }
  },
});

/**
 * Until `done()`: fire `time`'s next timer when one is armed (fake time moves to it), else let
 * the in-memory requests run (a turn of the event loop). Time moves only from pause to pause,
 * never while a request is on its way; fails after 10,000 loop turns instead of hanging.
 */
async function whileArmed(time: FakeTime, done: () => boolean): Promise<void> {
  for (let turns = 0; !done(); turns++) {
    assert.ok(turns < 10_000, `still not done at ${time.now()} ms of fake time`);
    if (time.pending > 0) await time.next();
    else await drainMicrotasks();
  }
}

Deno.test({
  name: "BackendRun: each turn has its own stop state; a SIGINT between turns stops the next one",
  permissions: NO_SPAWN,
  fn: async () => {
    const { host, records, writer, turn } = await scripted({});
    try {
      assert.equal(await turn(), EXIT.ok);
      // A deadline that expires after the first turn ended does not reach the second.
      host.timeout();
      assert.equal(await turn(), EXIT.ok);
      assert.ok(host.healthy);
      host.interrupt();
      assert.equal(await turn(), EXIT.interrupted);
      await writer.flush();
      assert.deepEqual(
        records.filter((r) => r.type === "turn.finished" || r.type === "host.error").map((
          r,
        ) => [r.type, r.exit_code]),
        [["turn.finished", 0], ["turn.finished", 0], ["host.error", EXIT.interrupted]],
      );
      assert.equal(records.at(-1)?.code, "interrupted");
    } finally {
      await host.stop();
    }
  },
});

/**
 * `fn` with the reference backend's serve function (in this process, a temporary MC_HOME, and
 * a scenario whose prompts containing "echo" call `echo_text` with `{text:"hi"}` and those
 * containing "count" call `srv_count`).
 */
async function withReference(fn: (serve: (io: BackendIo) => Promise<number>) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "magi-host-run-" });
  try {
    await Deno.mkdir(`${root}/cwd`);
    await Deno.writeTextFile(
      `${root}/scenario.json`,
      JSON.stringify({
        turns: [{
          match: "echo",
          steps: [
            { call: { tool: "echo_text", arguments: { text: "hi" }, label: "e" } },
            { say: "Got {{result:e}}" },
          ],
        }, {
          match: "count",
          steps: [
            { call: { tool: "srv_count", arguments: {}, label: "c" } },
            { say: "Got {{result:c}}" },
          ],
        }],
      }),
    );
    const env: Record<string, string> = {
      MC_HOME: `${root}/home`,
      MAGI_SCENARIO: `${root}/scenario.json`,
    };
    await fn((io) =>
      serve({ ...io, cwd: `${root}/cwd`, env: (name) => env[name], selfCheck: true })
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test({
  name: "BackendRun runs a tool call against the reference backend in memory; stop() ends with EOF",
  permissions: NO_SPAWN,
  fn: () =>
    withReference(async (reference) => {
      const { host, child, records, writer, turn } = await connect(reference);
      let stopped = false;
      try {
        assert.equal(await turn("please echo"), EXIT.ok);
        await host.stop();
        stopped = true;
      } finally {
        if (!stopped) await host.stop();
      }
      await writer.flush();
      const types = records.map((r) => r.type);
      for (const type of ["host.ready", "session", "turn.started", "tool.call", "tool.result"]) {
        assert.ok(types.includes(type), `${type} in ${types.join(", ")}`);
      }
      const result = records.find((r) => r.type === "tool.result");
      assert.equal(result?.outcome, "success");
      const message = records.findLast((r) => r.type === "message");
      assert.match(String(message?.text), /echo: hi/);
      assert.deepEqual(records.at(-1), { ...records.at(-1), type: "turn.finished", exit_code: 0 });
      // Shut down cleanly: shutdown answered, EOF, the backend exited 0 without a signal.
      assert.ok(child.stdinClosed);
      assert.deepEqual(child.signals, []);
      assert.deepEqual(await child.exited, { code: 0, signal: null });
    }),
});

Deno.test({
  name: "BackendRun routes a later turn's tool records to that turn's writer",
  permissions: NO_SPAWN,
  fn: () =>
    withReference(async (reference) => {
      const first = await connect(reference);
      const second = recordingWriter();
      try {
        assert.equal(await first.turn("echo one"), EXIT.ok);
        assert.equal(await first.turn("echo two", second.writer), EXIT.ok);
      } finally {
        await first.host.stop();
      }
      await Promise.all([first.writer.flush(), second.writer.flush()]);
      const calls = (records: Rec[]) =>
        records.filter((r) => r.type === "tool.call" || r.type === "tool.result").map((r) =>
          r.type
        );
      assert.deepEqual(calls(first.records), ["tool.call", "tool.result"]);
      assert.deepEqual(calls(second.records), ["tool.call", "tool.result"]);
      const runOf = (records: Rec[]) => records.find((r) => r.type === "turn.started")?.run_id;
      const callRun = (records: Rec[]) => records.find((r) => r.type === "tool.call")?.run_id;
      assert.equal(callRun(second.records), runOf(second.records));
      assert.notEqual(runOf(first.records), runOf(second.records));
    }),
});

Deno.test({
  name: "BackendRun routes a later turn's tool.progress records to that turn's writer",
  permissions: NO_SPAWN,
  fn: () =>
    withReference(async (reference) => {
      const first = await connect(reference);
      const second = recordingWriter();
      try {
        assert.equal(await first.turn("count one"), EXIT.ok);
        assert.equal(await first.turn("count two", second.writer), EXIT.ok);
      } finally {
        await first.host.stop();
      }
      await Promise.all([first.writer.flush(), second.writer.flush()]);
      // Each writer has its own turn's call and that call's two progress records, no others.
      for (const records of [first.records, second.records]) {
        const runId = records.find((r) => r.type === "turn.started")?.run_id;
        const call = records.find((r) => r.type === "tool.call");
        assert.equal(call?.run_id, runId);
        const progress = records.filter((r) => r.type === "tool.progress");
        assert.deepEqual(
          progress.map((r) => [r.run_id, r.call_id, r.name, r.progress, r.total]),
          [[runId, call?.call_id, "srv_count", 1, 2], [runId, call?.call_id, "srv_count", 2, 2]],
        );
      }
    }),
});

Deno.test({
  name: "HostRun: a backend stalling after cancel is killed by the watchdog, exit 4, no hang",
  permissions: NO_SPAWN,
  fn: async () => {
    // Was the e2e test of `run --timeout 0.5` against the fake backend's `stall_run` (7.5 s of
    // real waiting); here on fake time: the watchdog's wait is cancel grace + cleanup + 3 s.
    const time = new FakeTime();
    const { host, child, records, writer, turn } = await scripted({ mode: "stall_run" }, time);
    try {
      let failure: unknown;
      const running = turn().then(() => null, (error) => failure = error);
      assert.ok(
        await eventually(async () => {
          await writer.flush();
          return records.some((r) => r.type === "turn.started");
        }, 10_000),
      );
      const softStop = time.now();
      host.timeout();
      await whileArmed(time, () => failure !== undefined);
      await running;
      assert.ok(time.now() - softStop >= 7_000, `gave up after ${time.now() - softStop} ms`);
      // What the CLI reports for it: the host.error record and the exit code.
      const code = await host.failure(failure, writer);
      await writer.flush();
      assert.equal(code, 4);
      assert.equal(one(records, "host.error").code, "backend_exited");
    } finally {
      await host.stop();
    }
    // stall_run never exits at EOF: only a kill ends it.
    assert.ok(child.hasExited, "backend killed");
    assert.ok(child.signals.length > 0, "backend killed");
  },
});
