/**
 * The batch output folder under faults (issue 33): one batch per folder (a second exits 2
 * naming the holder), recovery after kill -9 with the attempt counter, the start-failure count
 * with several slots, and a finished folder on read-only media.
 */

import assert from "node:assert/strict";
import { indexLines, ROOT, runCli, spawnCli, summaryOf, writeInput } from "./_batch.ts";
import { FULL_CLI, REFERENCE_AGENT } from "../e2e/_cli.ts";
import { eventually } from "../_wait.ts";

const STAMP_TOOLS = `${ROOT}tests/batch/fixtures/attempt_tools`;

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "magi-batch-lock-" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Wait (at most 60 s) until `check` holds. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  if (!await eventually(check, 60_000)) throw new Error(`Timed out waiting for ${what}`);
}

async function text(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

function hostname(): string {
  return Deno.readTextFileSync("/proc/sys/kernel/hostname").trim();
}

Deno.test("batch: a second batch on the same --out exits 2 naming the holder; after kill -9 a rerun takes over, reruns the in-flight item as attempt 2, and the index has no duplicates", async () => {
  await withDir(async (dir) => {
    const home = await Deno.makeTempDir({ prefix: "magi-batch-home-" });
    try {
      const input = await writeInput(dir, [
        { id: "quick", prompt: 'Use stamp {"ms":1}' },
        // Waits until killed on attempt 1; returns at once on attempt 2.
        { id: "slow", prompt: 'Use stamp {"ms":600000}' },
      ]);
      const out = `${dir}/out`;
      const args = ["batch", input, "--out", out, "--jobs", "2", "--tools", STAMP_TOOLS];
      const first = spawnCli(args, { home });
      const drained = Promise.all([
        new Response(first.stdout).arrayBuffer(),
        new Response(first.stderr).arrayBuffer(),
      ]);
      try {
        // Mid-batch: quick is finished and slow has started.
        await until("quick finished and slow started", async () => {
          const index = await indexLines(out);
          return index.some((e) => e.id === "quick") &&
            (await text(`${out}/attempts.jsonl`)).includes('"slow"');
        });
        const lock = JSON.parse(await Deno.readTextFile(`${out}/batch.lock`));
        assert.equal(lock.pid, first.pid);

        const second = await runCli(args, { home });
        assert.equal(second.code, 2, second.stderr);
        assert.match(
          second.stderr,
          new RegExp(`in use by another batch: PID ${first.pid} on host `),
        );
        assert.ok(second.stderr.includes(`on host ${hostname()}`), second.stderr);
        assert.equal(second.stdout, "");
      } finally {
        first.kill("SIGKILL");
        await first.status;
        await drained;
      }
      assert.deepEqual((await indexLines(out)).map((e) => e.id), ["quick"]);

      const third = await runCli(args, { home });
      assert.equal(third.code, 0, third.stderr);
      assert.match(
        third.stderr,
        new RegExp(`took over the lock of .* from PID ${first.pid} on host .*no longer running`),
      );
      const summary = summaryOf(third);
      assert.equal(summary.skipped, 1);
      assert.equal(summary.completed, 1);
      const index = await indexLines(out);
      assert.deepEqual(index.map((e) => e.id), ["quick", "slow"], "one line per id");
      assert.equal(index[0]!.attempt, 1);
      assert.equal(index[1]!.attempt, 2);
      const records = (await Deno.readTextFile(`${out}/items/slow.ndjson`)).trim().split("\n")
        .map((l) => JSON.parse(l));
      assert.equal(records.find((r) => r.type === "turn.started")?.attempt, 2);
      assert.equal(records.find((r) => r.type === "tool.log")?.text.trim(), "attempt 2");
      // Released at the end: the next run takes the lock without a word.
      assert.equal(await Deno.readTextFile(`${out}/batch.lock`), "");
      const fourth = await runCli(args, { home });
      assert.equal(fourth.code, 0, fourth.stderr);
      assert.doesNotMatch(fourth.stderr, /took over/);
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
});

Deno.test("batch: with --jobs 4 and a backend that cannot start, exactly 3 failed starts are recorded", async () => {
  await withDir(async (dir) => {
    const ids = Array.from({ length: 8 }, (_, i) => `i${i}`);
    const input = await writeInput(dir, ids.map((id) => ({ id, prompt: "x" })));
    const out = `${dir}/out`;
    const run = await runCli([
      "batch",
      input,
      "--out",
      out,
      "--jobs",
      "4",
      "--tools",
      STAMP_TOOLS,
      "--agent",
      "/nonexistent/magi-code serve",
    ]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /Batch stopped: the backend failed to start 3 times in a row/);
    const summary = summaryOf(run);
    assert.equal(summary.failed, 3);
    assert.equal(summary.not_run, 5);
    assert.equal((await indexLines(out)).length, 3);
  });
});

/** Whether this machine lets a test make a read-only bind mount in its own mount namespace. */
const CAN_MOUNT_RO = (() => {
  try {
    const dir = Deno.makeTempDirSync();
    const { code } = new Deno.Command("unshare", {
      args: ["-m", "sh", "-c", `mount --bind -o ro ${dir} ${dir} && ! touch ${dir}/x 2>/dev/null`],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    Deno.removeSync(dir, { recursive: true });
    return code === 0;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "batch: a finished output folder on read-only media reruns as its recorded outcome",
  ignore: !CAN_MOUNT_RO,
  fn: async () => {
    await withDir(async (dir) => {
      const input = await writeInput(dir, [{ id: "one", prompt: 'Use stamp {"ms":1}' }]);
      const out = `${dir}/out`;
      const args = ["batch", input, "--out", out, "--tools", STAMP_TOOLS];
      const first = await runCli(args);
      assert.equal(first.code, 0, first.stderr);
      // The same command with --out mounted read-only (in a mount namespace of its own).
      const cli = [Deno.execPath(), "run", ...FULL_CLI, "-A", `${ROOT}mod.ts`, ...args];
      const quoted = cli.map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(" ");
      const home = await Deno.makeTempDir();
      const rerun = await new Deno.Command("unshare", {
        args: ["-m", "sh", "-c", `mount --bind -o ro '${out}' '${out}' && exec ${quoted}`],
        cwd: ROOT,
        env: { NO_COLOR: "1", MC_HOME: home, MAGI_CODE_AGENT: REFERENCE_AGENT },
        stdout: "piped",
        stderr: "piped",
      }).output();
      await Deno.remove(home, { recursive: true });
      const stderr = new TextDecoder().decode(rerun.stderr);
      assert.equal(rerun.code, 0, stderr);
      assert.match(stderr, /read-only; every selected item is finished/);
      const summary = summaryOf({
        code: rerun.code,
        stdout: new TextDecoder().decode(rerun.stdout),
        stderr,
      });
      assert.equal(summary.skipped, 1);
      assert.equal(summary.exit_code, 0);
      // A folder with work left and no way to write it is still a usage error.
      await Deno.writeTextFile(
        input,
        `${JSON.stringify({ id: "two", prompt: 'Use stamp {"ms":1}' })}\n`,
        { append: true },
      );
      const more = await new Deno.Command("unshare", {
        args: ["-m", "sh", "-c", `mount --bind -o ro '${out}' '${out}' && exec ${quoted}`],
        cwd: ROOT,
        env: { NO_COLOR: "1", MAGI_CODE_AGENT: REFERENCE_AGENT },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(more.code, 2);
      assert.match(
        new TextDecoder().decode(more.stderr),
        /read-only.*1 item\(s\) still need to run/,
      );
    });
  },
});

Deno.test("batch: SIGTERM stops like Ctrl-C (turn cancelled, item not recorded, lock released) and exits 143", async () => {
  await withDir(async (dir) => {
    const home = await Deno.makeTempDir({ prefix: "magi-batch-home-" });
    try {
      const input = await writeInput(dir, [{ id: "slow", prompt: 'Use stamp {"ms":600000}' }]);
      const out = `${dir}/out`;
      const child = spawnCli(["batch", input, "--out", out, "--tools", STAMP_TOOLS], { home });
      const stdout = new Response(child.stdout).text();
      const stderr = new Response(child.stderr).text();
      try {
        await until(
          "slow started",
          async () => (await text(`${out}/attempts.jsonl`)).includes('"slow"'),
        );
      } finally {
        child.kill("SIGTERM");
      }
      const status = await child.status;
      assert.equal(status.code, 143, await stderr);
      const summary = summaryOf({ code: status.code, stdout: await stdout, stderr: "" });
      assert.equal(summary.interrupted, true);
      assert.equal(summary.not_run, 1);
      assert.equal(summary.exit_code, 143);
      assert.deepEqual(await indexLines(out), []);
      assert.equal(await Deno.readTextFile(`${out}/batch.lock`), "");
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  });
});
