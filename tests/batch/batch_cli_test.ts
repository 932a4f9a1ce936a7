import assert from "node:assert/strict";
import {
  assertWholeItem,
  FIXTURE_TOOLS,
  indexLines,
  itemFiles,
  runCli,
  runningPrompts,
  spawnCli,
  summaryOf,
  writeInput,
} from "./_batch.ts";
import { eventually } from "../_wait.ts";

const TWO_CALLS = 'Use sleepy {"ms":20} and note {"text":"hi"} please';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-batch-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("batch: a duplicate id exits 2 naming the line, before anything runs", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(dir, [
      { id: "a", prompt: "x" },
      { id: "b", prompt: "x" },
      { id: "a", prompt: "y" },
    ]);
    const run = await runCli(["batch", input, "--out", `${dir}/out`, "--tools", FIXTURE_TOOLS]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /input\.jsonl:3/);
    assert.equal(run.stdout, "");
    assert.equal(itemFiles(`${dir}/out`).length, 0);
    await assert.rejects(Deno.stat(`${dir}/out`), Deno.errors.NotFound);
  });
});

Deno.test("batch: bad flags exit 2 naming the flag", async () => {
  for (
    const [args, pattern] of [
      [["--out", "o", "--jobs", "0"], /--jobs/],
      [["--out", "o", "--shard", "3/2"], /--shard/],
      [["--out", "o", "--approve", "ask"], /--approve ask/],
      [[], /--out/],
    ] as const
  ) {
    const run = await runCli(["batch", "in.jsonl", ...args]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, pattern);
    assert.equal(run.stdout, "");
  }
});

Deno.test("batch: items share backends (a new session each), files are whole, a rerun skips them", async () => {
  await withDir(async (dir) => {
    const ids = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const input = await writeInput(dir, ids.map((id) => ({ id, prompt: TWO_CALLS })));
    const out = `${dir}/out`;
    const args = [
      "batch",
      input,
      "--out",
      out,
      "--jobs",
      "2",
      "--tools",
      FIXTURE_TOOLS,
      "--approve",
      "allow",
    ];
    const first = await runCli(args);
    assert.equal(first.code, 0, first.stderr);
    const summary = summaryOf(first);
    assert.equal(summary.completed, 6);
    assert.equal(summary.failed, 0);
    assert.equal(summary.skipped, 0);
    assert.equal(summary.exit_code, 0);
    assert.deepEqual(itemFiles(out), ids);
    const instances = new Set<unknown>();
    const sessions = new Set<unknown>();
    for (const id of ids) {
      const records = await assertWholeItem(out, id);
      const types = records.map((r) => r.type);
      assert.equal(types[0], "host.ready");
      assert.equal(types[1], "session");
      assert.equal(types.at(-1), "turn.finished");
      assert.equal(types.filter((t) => t === "tool.result").length, 2);
      instances.add(records[0]!.instance_id);
      sessions.add(records[1]!.session_id);
    }
    // Two slots: at most two backends for six items, and a new session per item.
    assert.ok(instances.size <= 2, `backends: ${instances.size}`);
    assert.equal(sessions.size, 6);
    const index = await indexLines(out);
    assert.deepEqual(index.map((e) => e.id).sort(), ids);
    for (const entry of index) {
      assert.equal(entry.outcome, "completed");
      assert.equal(entry.exit_code, 0);
      assert.deepEqual(entry.tool_calls, { success: 2, error: 0, cancelled: 0, denied: 0 });
      assert.match(String(entry.last_message), /slept 20/);
      assert.equal(typeof entry.session_id, "string");
      assert.equal(typeof entry.duration_ms, "number");
    }
    const again = await runCli(args);
    assert.equal(again.code, 0, again.stderr);
    const resumed = summaryOf(again);
    assert.equal(resumed.skipped, 6);
    assert.equal(resumed.completed, 0);
    assert.equal((await indexLines(out)).length, 6);
  });
});

Deno.test("batch: a failed item exits 1; a rerun skips it, --retry-failed runs only it again", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(dir, [
      { id: "good", prompt: "hello" },
      { id: "bad", prompt: "FAILME now" },
    ]);
    const out = `${dir}/out`;
    const args = ["batch", input, "--out", out, "--tools", FIXTURE_TOOLS];
    const first = await runCli(args);
    assert.equal(first.code, 1, first.stderr);
    assert.equal(summaryOf(first).failed, 1);
    const bad = (await indexLines(out)).find((e) => e.id === "bad")!;
    assert.equal(bad.outcome, "failed");
    assert.equal(bad.exit_code, 1);
    assert.equal(bad.error, "execution_failed");
    const plain = await runCli(args);
    assert.equal(plain.code, 1);
    assert.equal(summaryOf(plain).skipped, 2);
    assert.equal((await indexLines(out)).length, 2);
    const retry = await runCli([...args, "--retry-failed"]);
    assert.equal(retry.code, 1);
    const summary = summaryOf(retry);
    assert.equal(summary.skipped, 1);
    assert.equal(summary.failed, 1);
    const ids = (await indexLines(out)).map((e) => e.id);
    assert.deepEqual(ids, ["good", "bad", "bad"]);
  });
});

Deno.test("batch: a backend that cannot start fails items with exit 3, then the batch stops", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(
      dir,
      ["a", "b", "c", "d", "e"].map((id) => ({ id, prompt: "x" })),
    );
    const out = `${dir}/out`;
    const run = await runCli([
      "batch",
      input,
      "--out",
      out,
      "--tools",
      FIXTURE_TOOLS,
      "--agent",
      "/nonexistent/magi-code serve",
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Batch stopped: the backend failed to start 3 times in a row/);
    const summary = summaryOf(run);
    assert.equal(summary.failed, 3);
    assert.equal(summary.not_run, 2);
    for (const entry of await indexLines(out)) {
      assert.equal(entry.exit_code, 3);
      assert.match(String(entry.error), /^backend_unavailable/);
    }
  });
});

Deno.test("batch: Ctrl-C cancels running turns, exits 130, keeps finished items; a rerun resumes", async () => {
  await withDir(async (dir) => {
    const input = await writeInput(dir, [
      { id: "quick1", prompt: "hello" },
      { id: "quick2", prompt: "hello again" },
      { id: "slow1", prompt: "SLOWPOKE" },
      { id: "slow2", prompt: "SLOWPOKE" },
    ]);
    const out = `${dir}/out`;
    const home = await Deno.makeTempDir({ prefix: "magi-batch-home-" });
    try {
      const args = ["batch", input, "--out", out, "--jobs", "2", "--tools", FIXTURE_TOOLS];
      const child = spawnCli(args, { home });
      const stdout = new Response(child.stdout).text();
      const stderr = new Response(child.stderr).text();
      const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
      // Wait until both quick items are in and the slow ones are running (their turns started).
      const slowRunning = async () =>
        (await indexLines(out)).length >= 2 &&
        (await runningPrompts(home)).filter((prompt) => prompt === "SLOWPOKE").length === 2;
      assert.ok(await eventually(slowRunning, 40_000), "the slow items are running");
      const sent = performance.now();
      child.kill("SIGINT");
      const status = await child.status;
      clearTimeout(guard);
      const run = { code: status.code, stdout: await stdout, stderr: await stderr };
      assert.equal(run.code, 130, run.stderr);
      assert.ok(performance.now() - sent < 20_000, "stopped promptly");
      const summary = summaryOf(run);
      assert.equal(summary.interrupted, true);
      assert.equal(summary.completed, 2);
      assert.equal(summary.not_run, 2);
      assert.deepEqual(itemFiles(out), ["quick1", "quick2"]);
      assert.deepEqual([...Deno.readDirSync(`${out}/items`)].length, 2, "no temporary file left");
      // The rerun runs only the two interrupted items (cut short here by --timeout).
      const rerun = await runCli([...args, "--timeout", "1"], { home });
      assert.equal(rerun.code, 1, rerun.stderr);
      const resumed = summaryOf(rerun);
      assert.equal(resumed.skipped, 2);
      assert.equal(resumed.failed, 2);
      for (const entry of (await indexLines(out)).slice(2)) {
        assert.equal(entry.outcome, "cancelled");
        assert.equal(entry.error, "cancelled by timeout");
      }
    } finally {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  });
});

Deno.test("batch: --shard K/N runs a disjoint share each; report merges the shard folders", async () => {
  await withDir(async (dir) => {
    const ids = ["a1", "b2", "c3", "d4", "e5", "f6", "g7"];
    const input = await writeInput(dir, ids.map((id) => ({ id, prompt: `hello ${id}` })));
    const home = await Deno.makeTempDir({ prefix: "magi-batch-home-" });
    try {
      const seen: string[] = [];
      let selected = 0;
      for (let k = 1; k <= 3; k++) {
        const out = `${dir}/shard-${k}`;
        const run = await runCli(
          ["batch", input, "--out", out, "--shard", `${k}/3`, "--tools", FIXTURE_TOOLS],
          { home },
        );
        assert.equal(run.code, 0, run.stderr);
        const summary = summaryOf(run);
        assert.equal(summary.shard, `${k}/3`);
        assert.equal(summary.input_items, ids.length);
        selected += Number(summary.selected);
        seen.push(...itemFiles(out));
      }
      assert.equal(selected, ids.length);
      assert.deepEqual(seen.sort(), ids, "every id in exactly one shard");
      const report = await runCli([
        "report",
        `${dir}/shard-1`,
        `${dir}/shard-2`,
        `${dir}/shard-3`,
        "--markdown",
        "-",
      ]);
      assert.equal(report.code, 0, report.stderr);
      assert.match(report.stdout, /7 items from 3 folders: \*\*7 succeeded\*\*, \*\*0 failed\*\*/);
    } finally {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    }
  });
});
