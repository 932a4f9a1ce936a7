/**
 * `HostRun.turn()` against a backend that answers `busy` while it cleans up the previous run
 * ("another run/cleanup → busy"): a later turn on the same connection waits, within a bound;
 * the first turn does not.
 */

import assert from "node:assert/strict";
import { ApprovalDecider } from "../../src/run/approvals.ts";
import { isReported } from "../../src/errors/mod.ts";
import { HostRun, loadRegistry } from "../../src/run/host_run.ts";
import { ProtocolError } from "../../src/protocol/errors.ts";
import { SummaryWriter } from "../../src/summary/writer.ts";
import { FAKE_BACKEND } from "../client/_fake.ts";
import { FIXTURE_TOOLS } from "../e2e/_cli.ts";

/** A connection to the fake backend with `env`, initialized; `turn()` runs one turn on it. */
async function connect(env: Record<string, string>) {
  const registry = await loadRegistry([FIXTURE_TOOLS]);
  assert.ok(!isReported(registry));
  const records: Record<string, unknown>[] = [];
  const decoder = new TextDecoder();
  const writer = new SummaryWriter((bytes) => {
    for (const line of decoder.decode(bytes).split("\n")) {
      if (line !== "") records.push(JSON.parse(line));
    }
    return Promise.resolve();
  }, { selfCheck: true });
  const host = await HostRun.start({
    toolDirs: [FIXTURE_TOOLS],
    registry,
    agent: {
      command: Deno.execPath(),
      args: ["run", "-A", FAKE_BACKEND, "ok"],
      source: "flag",
      label: "fake_backend",
    },
    cwd: Deno.cwd(),
    env: { NO_COLOR: "1", ...env },
    kernelSandbox: "off",
    writer,
  });
  assert.ok(!isReported(host), `started (${JSON.stringify(host)})`);
  assert.equal(await host.initialize(writer), null);
  const turn = () =>
    host.turn({
      prompt: "hello",
      session: undefined,
      writer,
      deltas: false,
      approvals: new ApprovalDecider("deny", null),
      lastMessage: undefined,
    });
  return { host, records, writer, turn };
}

function isBusy(error: unknown): boolean {
  return error instanceof ProtocolError && error.code === "busy";
}

for (const method of ["session.create", "turn.start"]) {
  Deno.test(`HostRun.turn() waits while ${method} answers busy after the previous run`, async () => {
    const { host, records, writer, turn } = await connect({
      FAKE_BUSY_METHOD: method,
      FAKE_BUSY_COUNT: "2",
    });
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
  });
}

for (const method of ["session.create", "turn.start"]) {
  Deno.test(`HostRun.turn() passes on busy from ${method} on the connection's first turn`, async () => {
    // One busy answer only: a retry would succeed, so the failure shows there was none.
    const { host, turn } = await connect({
      FAKE_BUSY_METHOD: method,
      FAKE_BUSY_COUNT: "1",
      FAKE_BUSY_FIRST: "1",
    });
    try {
      await assert.rejects(turn(), isBusy);
    } finally {
      await host.stop();
    }
  });
}

Deno.test("HostRun.turn() gives up after about 5 s of busy after the previous run", async () => {
  const { host, turn } = await connect({
    FAKE_BUSY_METHOD: "session.create",
    FAKE_BUSY_COUNT: "forever",
  });
  try {
    assert.equal(await turn(), 0);
    const started = performance.now();
    await assert.rejects(turn(), isBusy);
    const waitedMs = performance.now() - started;
    assert.ok(waitedMs >= 4_900, `waited ${Math.round(waitedMs)} ms before giving up`);
    assert.ok(waitedMs < 8_000, `gave up within the bound: ${Math.round(waitedMs)} ms`);
  } finally {
    await host.stop();
  }
});
