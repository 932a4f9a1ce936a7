/**
 * `batch` with a tool that reports progress (an MCP server's `notifications/progress`): each
 * item's `tool.progress` records are in that item's file, also for the later items of a slot,
 * whose backend connection (and its tool wiring) was set up for the slot's first item.
 */

import assert from "node:assert/strict";
import { DEV_CONFIG, ROOT } from "../e2e/_cli.ts";
import { writeConfig } from "../mcp/_config.ts";
import { assertWholeItem, FIXTURE_TOOLS, runCli, summaryOf, writeInput } from "./_batch.ts";

const PROGRESS_SERVER = `${ROOT}tests/batch/fixtures/progress_server.ts`;

Deno.test("batch: a slot's later items get their own tool.progress records", async () => {
  const dir = await Deno.makeTempDir({ prefix: "magi-batch-tool-progress-" });
  try {
    const config = await writeConfig({
      mcpServers: {
        px: {
          command: Deno.execPath(),
          args: ["run", ...DEV_CONFIG, "-A", PROGRESS_SERVER],
          effects: { count: "read" },
        },
      },
    });
    // One slot (--jobs 1): p2 and p3 run on the connection that p1's item initialized.
    const ids = ["p1", "p2", "p3"];
    const input = await writeInput(dir, ids.map((id) => ({ id, prompt: "Use px_count now" })));
    const out = `${dir}/out`;
    const run = await runCli([
      "batch",
      input,
      "--out",
      out,
      "--jobs",
      "1",
      "--tools",
      FIXTURE_TOOLS,
      "--config",
      config,
    ]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(summaryOf(run).completed, ids.length);
    for (const id of ids) {
      const records = await assertWholeItem(out, id);
      const runId = records.find((r) => r.type === "turn.started")?.run_id;
      const call = records.find((r) => r.type === "tool.call" && r.name === "px_count");
      assert.ok(call !== undefined, `${id}: px_count called`);
      const result = records.find((r) => r.type === "tool.result" && r.call_id === call.call_id);
      assert.equal(result?.outcome, "success", `${id}: px_count answered`);
      const progress = records.filter((r) => r.type === "tool.progress");
      assert.deepEqual(
        progress.map((r) => [r.run_id, r.call_id, r.name, r.progress, r.total, r.message]),
        [
          [runId, call.call_id, "px_count", 1, 2, "step 1"],
          [runId, call.call_id, "px_count", 2, 2, "step 2"],
        ],
        `${id}: its own call's progress, and only that`,
      );
      // Progress comes while the call runs: between its tool.call and its tool.result.
      const at = (r: Record<string, unknown> | undefined) => records.indexOf(r!);
      assert.ok(progress.every((p) => at(p) > at(call) && at(p) < at(result)), id);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
