import assert from "node:assert/strict";
import { ApprovalDecider } from "../../src/run/approvals.ts";
import { isReported } from "../../src/errors/mod.ts";
import { loadRegistry } from "../../src/run/backend_run.ts";
import { BatchRun } from "../../src/batch/run.ts";
import type { BatchStore } from "../../src/batch/store.ts";
import { FIXTURE_TOOLS } from "../e2e/_cli.ts";

Deno.test("BatchRun: an output folder that cannot be written stops the batch with the reason", async () => {
  const registry = await loadRegistry([FIXTURE_TOOLS]);
  assert.ok(!isReported(registry));
  let commits = 0;
  const store = {
    start: () => Promise.resolve(1),
    commit: () => {
      commits++;
      return Promise.reject(new Error("ENOSPC: no space left on device"));
    },
  } as unknown as BatchStore;
  const items = ["a", "b", "c", "d"].map((id, i) => ({ id, prompt: "x", line: i + 1 }));
  const run = new BatchRun({
    items,
    store,
    jobs: 2,
    registry,
    toolDirs: [FIXTURE_TOOLS],
    // Cannot be spawned: each item ends at once with exit 3, then its commit fails.
    agent: { command: "/nonexistent/backend", args: [], source: "flag", label: "backend" },
    cwd: Deno.cwd(),
    cwdOf: () => Deno.cwd(),
    approvals: new ApprovalDecider("deny", null),
    deltas: false,
    timeoutMs: undefined,
    startupTimeoutMs: 10_000,
    stallTimeoutMs: 0,
  });
  const totals = await run.run();
  assert.match(String(totals.fault), /^Cannot write to the output folder: ENOSPC/);
  assert.equal(totals.completed + totals.failed, 0);
  assert.equal(totals.notRun, 4);
  assert.equal(commits, 2, "each slot stopped after its first failed commit");
  assert.equal(run.running, 0);
});
