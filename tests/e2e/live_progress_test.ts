/**
 * Issue 35 item 5 through the CLI: a module tool's `ctx.progress` becomes `tool.progress`
 * records (process and inline tools), a tight loop of it is bounded, and a process tool's
 * output reaches `tool.log` while the call still runs.
 */

import assert from "node:assert/strict";
import { ofType, one, type Rec, ROOT, runCli } from "./_cli.ts";
import { PROGRESS_BURST } from "../../src/tool/progress.ts";

const LIVE_TOOLS = `${ROOT}tests/e2e/fixtures/live_tools`;
const WITH_SCENARIO = { MAGI_SCENARIO: `${ROOT}tests/e2e/fixtures/scenarios/live.jsonc` };

function run(prompt: string, cwd: string): string[] {
  return ["run", "--no-config", "--tools", LIVE_TOOLS, "--cwd", cwd, "--timeout", "60", prompt];
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-tools-e2e-live-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The call's progress records, checked to sit between its tool.call and tool.result. */
function progressOf(records: Rec[], name: string): Rec[] {
  const call = one(records, "tool.call");
  const result = one(records, "tool.result");
  assert.equal(call.name, name);
  assert.equal(result.outcome, "success");
  const progress = ofType(records, "tool.progress");
  for (const record of progress) {
    assert.equal(record.call_id, call.call_id);
    assert.equal(record.run_id, call.run_id);
    assert.equal(record.name, name);
    const at = records.indexOf(record);
    assert.ok(records.indexOf(call) < at && at < records.indexOf(result), "out of order");
  }
  return progress;
}

for (
  const [prompt, name, messages] of [
    ["STEPS", "steps", ["first", "second", "third"]],
    ["STEPS_INLINE", "steps_inline", ["step 1", "step 2", "step 3"]],
  ] as const
) {
  Deno.test(`run: ${name}'s ctx.progress 1/3..3/3 is three tool.progress records`, async () => {
    await withDir(async (dir) => {
      const result = await runCli(run(prompt, dir), { env: WITH_SCENARIO });
      assert.equal(result.code, 0, result.stderr);
      const progress = progressOf(result.records, name);
      assert.deepEqual(
        progress.map((r) => [r.progress, r.total, r.message]),
        [[1, 3, messages[0]], [2, 3, messages[1]], [3, 3, messages[2]]],
      );
    });
  });
}

Deno.test("run: ctx.progress in a tight loop is bounded, and the last update still arrives", async () => {
  await withDir(async (dir) => {
    const result = await runCli(run("FLOOD", dir), { env: WITH_SCENARIO });
    assert.equal(result.code, 0, result.stderr);
    const progress = progressOf(result.records, "flood");
    // The burst, then 10 a second while the loop runs, and the newest one at the end: far fewer
    // than the 100,000 calls (the loop ends in well under a minute; the bound is per second).
    const seconds = Number(one(result.records, "tool.result").duration_ms) / 1000;
    assert.ok(
      progress.length <= PROGRESS_BURST + Math.ceil(seconds * 10) + 2,
      `${progress.length} records in ${seconds} s`,
    );
    assert.deepEqual(progress.at(-1)?.progress, 100_000);
    assert.deepEqual(progress[0]?.progress, 1);
  });
});

Deno.test("run: a process tool's log line is a tool.log record while the call still runs", async () => {
  await withDir(async (dir) => {
    let resultSeen = false;
    let marked = false;
    const result = await runCli(run("WAIT", dir), {
      env: WITH_SCENARIO,
      onRecord: (record) => {
        if (record.type === "tool.result") resultSeen = true;
        if (record.type === "tool.log" && !resultSeen && !marked) {
          marked = true;
          // The tool waits for this file: it ends only because its line arrived first.
          Deno.writeTextFileSync(`${dir}/go`, "");
        }
      },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.ok(marked, "no tool.log arrived before the tool's result");
    const logs = ofType(result.records, "tool.log");
    const toolResult = one(result.records, "tool.result");
    assert.equal(toolResult.outcome, "success");
    assert.match(String(logs[0]!.text), /^waiter: waiting for go\n/);
    assert.equal(logs[0]!.call_id, toolResult.call_id);
    assert.ok(result.records.indexOf(logs[0]!) < result.records.indexOf(toolResult));
    // Per call, the same bound as before: bytes add up over the call's logs.
    const bytes = logs.reduce((sum, log) => sum + Number(log.bytes), 0);
    assert.equal(bytes, new TextEncoder().encode(logs.map((l) => l.text).join("")).length);
  });
});
